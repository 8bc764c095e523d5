<?php

declare(strict_types=1);

// The router of `php -S` in front of a real server for RetryTest: answers each request as the next
// step of LAJAN_PROXY_STATE/steps.json says, then forwards to LAJAN_PROXY_UPSTREAM, and logs what it
// saw. `lose` forwards and answers 503 instead; `503` and `429` (Retry-After: 1) answer so without
// forwarding; `stall` waits 2 s before forwarding.
$state = (string) getenv('LAJAN_PROXY_STATE');
$lock = fopen("$state/lock", 'c');
flock($lock, LOCK_EX);
$steps = json_decode((string) @file_get_contents("$state/steps.json"), true) ?: [];
$step = array_shift($steps) ?? 'forward';
file_put_contents("$state/steps.json", json_encode($steps));
$headers = array_change_key_case(getallheaders(), CASE_LOWER);
file_put_contents("$state/seen.jsonl", json_encode(['headers' => $headers, 'at' => microtime(true)]) . "\n", FILE_APPEND);
flock($lock, LOCK_UN);

if ($step === '503' || $step === '429') {
    http_response_code((int) $step);
    header('Content-Type: application/json');
    if ($step === '429') {
        header('Retry-After: 1');
    }
    echo '{"code":"unavailable","message":"try later"}';
    return true;
}
if ($step === 'stall') {
    sleep(2);
}
$forwarded = [];
foreach ($headers as $name => $value) {
    if (!in_array($name, ['host', 'content-length', 'connection', 'accept-encoding'], true)) {
        $forwarded[] = "$name: $value";
    }
}
$context = stream_context_create(['http' => [
    'method' => $_SERVER['REQUEST_METHOD'],
    'header' => $forwarded,
    'content' => (string) file_get_contents('php://input'),
    'ignore_errors' => true,
]]);
$body = (string) file_get_contents(getenv('LAJAN_PROXY_UPSTREAM') . $_SERVER['REQUEST_URI'], false, $context);
if ($step === 'lose') {
    http_response_code(503);
    header('Content-Type: application/json');
    echo '{"code":"service_unavailable","message":"lost"}';
    return true;
}
preg_match('/^HTTP\/\S+ (\d+)/', $http_response_header[0] ?? '', $status);
http_response_code((int) ($status[1] ?? 502));
foreach ($http_response_header as $line) {
    if (stripos($line, 'x-request-id:') === 0 || stripos($line, 'content-type:') === 0) {
        header($line);
    }
}
echo $body;
return true;
