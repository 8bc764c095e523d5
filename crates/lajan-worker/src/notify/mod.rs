//! Customer notifications' transports: the outcome types and sender traits the notification
//! sender depends on (`transport.rs`), and the SMTP and HTTP-SMS implementations behind them.
//!
//! Every failure is sorted into retry-later ([`NotifyError::Transient`]) or give-up
//! ([`NotifyError::Permanent`]) so the caller can schedule retries without knowing the protocols.

mod sms;
mod smtp;
mod transport;

pub use lajan_services::messages::{OutgoingEmail, OutgoingSms};
pub use sms::{HttpSmsSender, SmsConfig, WHATSAPP};
pub use smtp::{SmtpConfig, SmtpSender, SmtpTls};
pub use transport::{Delivery, EmailSender, NotifyError, SmsSender, Unconfigured};
