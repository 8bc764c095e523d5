<?php

declare(strict_types=1);

// The library's own classes, by Composer's autoloader (`composer dump-autoload`); its PSR
// interfaces and the HTTP clients the tests use (Guzzle, Nyholm's PSR-7, Symfony HttpClient) from
// Debian's packages, which .ci/run installs: Packagist, where an application gets them with
// `composer require`, is out of this build's reach.
require __DIR__ . '/../vendor/autoload.php';
foreach ([
    'Psr/Http/Message/autoload.php',
    'Psr/Http/Message/factory-autoload.php',
    'Psr/Http/Client/autoload.php',
    'GuzzleHttp/autoload.php',
    'GuzzleHttp/Psr7/autoload.php',
    'Nyholm/Psr7/autoload.php',
    'Symfony/Component/HttpClient/autoload.php',
] as $library) {
    if (stream_resolve_include_path($library) === false) {
        throw new RuntimeException("$library is not installed: apt-get install php-guzzlehttp-guzzle php-nyholm-psr7 php-symfony-http-client");
    }
    require_once $library;
}
