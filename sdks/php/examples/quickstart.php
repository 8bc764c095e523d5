<?php

require 'vendor/autoload.php';

$lajan = new Lajan\Lajan(apiKey: 'sk_test_...', baseUrl: 'http://127.0.0.1:8080');
$client = $lajan->clients->create(['firstName' => 'Marie', 'lastName' => 'Jean', 'email' => 'marie@example.ht']);
$line = ['description' => 'Loan repayment', 'quantity' => '1', 'unitPrice' => '2500.00'];
$invoice = $lajan->invoices->create(['clientId' => $client->id, 'dueDate' => '2030-03-31', 'lineItems' => [$line]]);
$lajan->invoices->send($invoice->id);
$lajan->sandbox->simulatePayment(basename($invoice->paymentLink->url));
foreach ($lajan->invoices->list(['clientId' => $client->id]) as $listed) {
    echo $listed->invoiceNumber, ' ', $listed->total, "\n";
}
