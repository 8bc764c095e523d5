//! Types that exist only for the OpenAPI document: the values a text field or query parameter
//! accepts, so generators and fuzzers read the rule from the schema. Bodies and queries read
//! these fields as text and name any other value in their error.

use lajan_domain::{client, disbursement, invoice, message, money, payout, webhook};

/// The description of a request body that may be left out (an empty body is `{}`): the
/// document marks every body described so as not required.
pub(crate) const OPTIONAL_BODY: &str = "Optional: an empty body is the same as `{}`";
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// A document-only string type whose values are a domain enum's, named by `$values` (an
/// iterator of `&'static str`), so the schema and the server read one list.
macro_rules! one_of {
    ($(#[doc = $doc:literal])* $name:ident, $values:expr) => {
        $(#[doc = $doc])*
        pub(crate) struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                let values: Vec<&'static str> = $values.collect();
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some(concat!($($doc),*).trim()))
                    .enum_values(Some(values))
                    .into()
            }
        }

        impl ToSchema for $name {}
    };
}

one_of!(
    /// An invoicing currency.
    Currency,
    money::Currency::ALL.iter().map(|c| c.code())
);
one_of!(
    /// A language Lajan speaks to a client in: Haitian Creole, French or English.
    Language,
    client::Language::ALL.iter().map(|l| l.as_str())
);
one_of!(
    /// What a Stellar memo holds: text, a 64-bit id, or a 32-byte hash.
    MemoType,
    lajan_domain::stellar_memo::MemoKind::ALL.iter().map(|k| k.as_str())
);
one_of!(
    /// A channel an invoice is sent by.
    SendChannel,
    message::Channel::INVOICE.iter().map(|c| c.as_str())
);
one_of!(
    /// An invoice status to list.
    InvoiceStatusFilter,
    invoice::InvoiceStatus::ALL.iter().map(|s| s.as_str())
);
one_of!(
    /// A message status to list.
    MessageStatusFilter,
    message::MessageStatus::ALL.iter().map(|s| s.as_str())
);
one_of!(
    /// A message channel to list.
    ChannelFilter,
    message::Channel::ALL.iter().map(|c| c.as_str())
);
one_of!(
    /// A payout status to list (a region of the approval and execution statuses).
    PayoutStatusFilter,
    payout::PayoutFilter::ALL.iter().map(|s| s.as_str())
);
one_of!(
    /// A kind of payout to list.
    PayoutTypeFilter,
    payout::PayoutType::ALL.iter().map(|s| s.as_str())
);
one_of!(
    /// A disbursement status to list.
    DisbursementStatusFilter,
    disbursement::DisbursementStatus::ALL.iter().map(|s| s.as_str())
);
one_of!(
    /// An item status to list (the `counts` keys).
    ItemStatusFilter,
    disbursement::ItemStatus::ALL.iter().map(|s| s.as_str())
);
one_of!(
    /// An event type to list.
    EventTypeFilter,
    lajan_domain::event::EVENT_TYPES.iter().copied()
);
one_of!(
    /// A delivery status to list.
    DeliveryStatusFilter,
    webhook::DeliveryStatus::ALL.iter().map(|s| s.as_str())
);

/// What an endpoint subscribes to: an event type from the catalogue, an area wildcard such as
/// `invoice.*`, or `*` for every event.
pub(crate) struct EventSelector;

impl PartialSchema for EventSelector {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("An event type, an area wildcard such as `invoice.*`, or `*`."))
            .enum_values(Some(webhook::subscribable_patterns()))
            .into()
    }
}

impl ToSchema for EventSelector {}

/// Days from a due date a reminder falls on (negative: before), as settings take them.
pub(crate) struct ReminderOffsetDay;

impl PartialSchema for ReminderOffsetDay {
    fn schema() -> RefOr<Schema> {
        let days = lajan_domain::reminder::OFFSET_DAYS;
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .description(Some("Days from a due date (negative: before)."))
            .minimum(Some(f64::from(*days.start())))
            .maximum(Some(f64::from(*days.end())))
            .into()
    }
}

impl ToSchema for ReminderOffsetDay {}
