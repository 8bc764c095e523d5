<?php

declare(strict_types=1);

namespace Lajan;

use Psr\Http\Client\ClientInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;

/**
 * Finds a PSR-18 client and PSR-17 factories when none is given: through php-http/discovery when
 * it is installed (the composer.json requires it), else Guzzle's or Symfony HttpClient's and
 * Nyholm's, whichever the application has.
 */
final class Discovery
{
    public static function httpClient(): ClientInterface
    {
        if (class_exists(\Http\Discovery\Psr18ClientDiscovery::class)) {
            return \Http\Discovery\Psr18ClientDiscovery::find();
        }
        if (class_exists(\GuzzleHttp\Client::class)) {
            return new \GuzzleHttp\Client(['http_errors' => false]);
        }
        if (class_exists(\Symfony\Component\HttpClient\Psr18Client::class)) {
            return new \Symfony\Component\HttpClient\Psr18Client();
        }
        throw new LajanError('no PSR-18 HTTP client: composer require guzzlehttp/guzzle (or pass httpClient)');
    }

    public static function requestFactory(): RequestFactoryInterface
    {
        if (class_exists(\Http\Discovery\Psr17FactoryDiscovery::class)) {
            return \Http\Discovery\Psr17FactoryDiscovery::findRequestFactory();
        }
        return self::factory();
    }

    public static function streamFactory(): StreamFactoryInterface
    {
        if (class_exists(\Http\Discovery\Psr17FactoryDiscovery::class)) {
            return \Http\Discovery\Psr17FactoryDiscovery::findStreamFactory();
        }
        return self::factory();
    }

    private static function factory(): RequestFactoryInterface&StreamFactoryInterface
    {
        if (class_exists(\GuzzleHttp\Psr7\HttpFactory::class)) {
            return new \GuzzleHttp\Psr7\HttpFactory();
        }
        if (class_exists(\Nyholm\Psr7\Factory\Psr17Factory::class)) {
            return new \Nyholm\Psr7\Factory\Psr17Factory();
        }
        throw new LajanError('no PSR-17 factories: composer require guzzlehttp/psr7 or nyholm/psr7 (or pass them)');
    }
}
