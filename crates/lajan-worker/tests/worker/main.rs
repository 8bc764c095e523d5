//! Delivery-layer tests against loopback stand-ins: an SMTP sink and an HTTP SMS provider.

mod sms;
mod smtp;
