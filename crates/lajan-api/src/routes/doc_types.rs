//! Types that exist only for the OpenAPI document: the values a text field or query parameter
//! accepts, so generators and fuzzers read the rule from the schema. Bodies and queries read
//! these fields as text and name any other value in their error.

use lajan_domain::event::EVENT_TYPES;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// An invoicing currency.
#[derive(ToSchema)]
#[schema(rename_all = "UPPERCASE")]
#[allow(dead_code)]
pub enum Currency {
    Htg,
    Usd,
}

/// A channel an invoice is sent by.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code)]
pub enum SendChannel {
    Email,
    Sms,
}

/// What an endpoint subscribes to: an event type from the catalogue, an area wildcard such as
/// `invoice.*`, or `*` for every event.
pub struct EventSelector;

impl PartialSchema for EventSelector {
    fn schema() -> RefOr<Schema> {
        let mut names: Vec<String> = vec!["*".to_owned()];
        for event_type in EVENT_TYPES {
            let wildcard = format!("{}.*", event_type.split('.').next().unwrap_or_default());
            if !names.contains(&wildcard) {
                names.push(wildcard);
            }
        }
        names.extend(EVENT_TYPES.iter().map(|t| (*t).to_owned()));
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("An event type, an area wildcard such as `invoice.*`, or `*`."))
            .enum_values(Some(names))
            .into()
    }
}

impl ToSchema for EventSelector {}
