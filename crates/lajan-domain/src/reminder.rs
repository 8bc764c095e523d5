//! Reminders of what an invoice still asks for: the organization's schedule (days from each
//! due date, the channels, its local time of day) and which reminders are due at an instant.

use crate::Timestamp;
use crate::due_date::DueDate;
use crate::invoice::{Invoice, InvoiceStatus};
use crate::message::Channel;
use crate::validation::FieldErrors;
use jiff::civil::Time;

/// Three days before each due date, on the day, three and seven days after.
pub const DEFAULT_OFFSETS: [i32; 4] = [-3, 0, 3, 7];
/// How far from a due date a reminder may fall, in days.
pub const OFFSET_DAYS: std::ops::RangeInclusive<i32> = -60..=90;
/// At most this many reminders per due date: more is nagging.
pub const MAX_OFFSETS: usize = 8;
/// How long after its moment a reminder may still go out: one a longer outage missed is passed
/// over, so nobody is texted at night about the morning.
pub const CATCH_UP_MS: i64 = 12 * 3_600_000;

/// When an organization reminds its clients of what they owe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderSettings {
    /// Days from each due date (negative: before), ascending, distinct; empty: no reminders.
    pub offset_days: Vec<i32>,
    /// Each reminder goes on every one of these the client can receive (email, sms).
    pub channels: Vec<Channel>,
    /// The organization's local time of day reminders go out at.
    pub time_of_day: Time,
}

impl Default for ReminderSettings {
    fn default() -> Self {
        ReminderSettings {
            offset_days: DEFAULT_OFFSETS.to_vec(),
            channels: vec![Channel::Sms, Channel::Email],
            time_of_day: Time::constant(9, 0, 0, 0),
        }
    }
}

/// A change to the schedule as a request gives it; absent fields keep their value.
#[derive(Debug, Default, Clone)]
pub struct ReminderSettingsInput {
    pub offset_days: Option<Vec<i64>>,
    pub channels: Option<Vec<String>>,
    pub time_of_day: Option<String>,
}

/// A time of day as `HH:MM`, 24-hour.
pub fn parse_time_of_day(raw: &str) -> Result<Time, String> {
    let bad = || format!("must be a time of day as HH:MM (24-hour), e.g. 09:00, not {raw:?}");
    if raw.len() != 5 || raw.as_bytes()[2] != b':' {
        return Err(bad());
    }
    Time::strptime("%H:%M", raw).map_err(|_| bad())
}

/// `HH:MM`.
pub fn time_of_day_text(t: Time) -> String {
    t.strftime("%H:%M").to_string()
}

impl ReminderSettings {
    /// The schedule after `input`; each bad field named in `errors` (under `reminders.*`).
    pub fn updated(&self, input: ReminderSettingsInput, errors: &mut FieldErrors) -> ReminderSettings {
        let mut next = self.clone();
        if let Some(days) = input.offset_days {
            // Counted as given, as the document's maxItems counts them: a repeat is no excuse.
            if days.len() > MAX_OFFSETS {
                errors.add("reminders.offsetDays", format!("must hold at most {MAX_OFFSETS} days"));
            }
            let mut offsets = Vec::with_capacity(days.len());
            for (i, d) in days.iter().enumerate() {
                match i32::try_from(*d).ok().filter(|d| OFFSET_DAYS.contains(d)) {
                    Some(d) => offsets.push(d),
                    None => errors.add(
                        format!("reminders.offsetDays[{i}]"),
                        format!("must be between {} and {} days", OFFSET_DAYS.start(), OFFSET_DAYS.end()),
                    ),
                }
            }
            offsets.sort_unstable();
            offsets.dedup();
            next.offset_days = offsets;
        }
        if let Some(names) = input.channels {
            let mut channels = Vec::with_capacity(names.len());
            for (i, name) in names.iter().enumerate() {
                match name.parse::<Channel>() {
                    Ok(c) if Channel::INVOICE.contains(&c) => {
                        if !channels.contains(&c) {
                            channels.push(c);
                        }
                    }
                    _ => errors.add(format!("reminders.channels[{i}]"), "must be email or sms"),
                }
            }
            if names.is_empty() {
                errors.add("reminders.channels", "must name email, sms or both: to send none, leave offsetDays empty");
            }
            next.channels = channels;
        }
        if let Some(t) =
            input.time_of_day.as_deref().and_then(|t| errors.take("reminders.timeOfDay", parse_time_of_day(t)))
        {
            next.time_of_day = t;
        }
        next
    }
}

/// One reminder: about an instalment (its number from 1) or, without a plan, the invoice (0),
/// so many days from its due date. Each is sent at most once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ReminderKey {
    pub installment: i64,
    pub offset_days: i32,
}

/// A reminder due now and what it asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueReminder {
    pub key: ReminderKey,
    /// What is left of the instalment (or the invoice), in minor units.
    pub amount: i64,
    pub due_date: DueDate,
}

/// What reminding an invoice comes to at an instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderRun {
    /// The reminders to send now: for each part still owed, the latest one whose moment has
    /// come (within [`CATCH_UP_MS`], and after the invoice was sent) unless it was sent.
    pub due: Vec<DueReminder>,
    /// When the next one falls; `None` once nothing is left to remind of.
    pub next_at: Option<Timestamp>,
}

/// The invoice's reminders at `now` in timezone `tz`, given those already sent.
pub fn reminders_at(
    invoice: &Invoice,
    s: &ReminderSettings,
    tz: &str,
    sent: &[ReminderKey],
    now: Timestamp,
) -> ReminderRun {
    let open = matches!(
        invoice.status,
        InvoiceStatus::Sent | InvoiceStatus::Viewed | InvoiceStatus::PartiallyPaid | InvoiceStatus::Overdue
    );
    let Some(sent_at) = invoice.sent_at.filter(|_| open) else { return ReminderRun { due: Vec::new(), next_at: None } };
    let parts: Vec<(i64, i64, DueDate)> = if invoice.installments.is_empty() {
        vec![(0, invoice.amount_remaining(), invoice.due_date)]
    } else {
        let states = invoice.installment_states();
        states.iter().map(|p| (i64::try_from(p.number).unwrap_or(i64::MAX), p.remaining(), p.due_date)).collect()
    };
    let earliest = Timestamp::from_millis(sent_at.as_millis().max(now.as_millis() - CATCH_UP_MS));
    let (mut due, mut next_at) = (Vec::new(), None::<Timestamp>);
    for (installment, amount, due_date) in parts.into_iter().filter(|(_, amount, _)| *amount > 0) {
        let mut latest = None;
        for &offset_days in &s.offset_days {
            let Some(at) = due_date.moment(offset_days, s.time_of_day, tz) else { continue };
            if at > now {
                next_at = Some(next_at.map_or(at, |n| n.min(at)));
            } else if at > earliest {
                latest = Some(ReminderKey { installment, offset_days });
            }
        }
        if let Some(key) = latest.filter(|k| !sent.contains(k)) {
            due.push(DueReminder { key, amount, due_date });
        }
    }
    ReminderRun { due, next_at }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::installment::Installment;

    const TZ: &str = "America/Port-au-Prince";

    fn at(rfc3339: &str) -> Timestamp {
        Timestamp::parse_rfc3339(rfc3339).unwrap()
    }

    fn invoice(installments: &[(&str, i64)], paid: i64) -> Invoice {
        let plan: Vec<Installment> = installments
            .iter()
            .map(|(d, a)| Installment { amount: *a, due_date: DueDate::parse(d).unwrap() })
            .collect();
        let total = plan.iter().map(|p| p.amount).sum::<i64>().max(10_000);
        Invoice {
            id: "inv_1".into(),
            number: "INV-000001".into(),
            client_id: "cli_1".into(),
            currency: crate::money::Currency::Htg,
            status: if paid > 0 { InvoiceStatus::PartiallyPaid } else { InvoiceStatus::Sent },
            due_date: plan.last().map_or_else(|| DueDate::parse("2026-12-15").unwrap(), |p| p.due_date),
            memo: None,
            line_items: Vec::new(),
            totals: crate::invoice::Totals { subtotal: total, tax: 0, total },
            amount_paid: paid,
            amount_overpaid: 0,
            amount_credited: 0,
            installments: plan,
            apply_credit_balance: false,
            payment_intent_id: "pi_1".into(),
            created_at: at("2026-11-01T11:00:00Z"),
            updated_at: at("2026-11-01T12:00:00Z"),
            sent_at: Some(at("2026-11-01T12:00:00Z")),
            paid_at: None,
            voided_at: None,
            void_reason: None,
        }
    }

    #[test]
    fn a_reminder_falls_at_the_organizations_time_of_day_and_only_the_latest_goes() {
        let s = ReminderSettings::default();
        let i = invoice(&[], 0);
        // 2026-12-12 09:00 in Port-au-Prince (UTC-5) is 14:00Z.
        let before = reminders_at(&i, &s, TZ, &[], at("2026-12-12T13:59:00Z"));
        assert_eq!((before.due.len(), before.next_at), (0, Some(at("2026-12-12T14:00:00Z"))));
        let run = reminders_at(&i, &s, TZ, &[], at("2026-12-12T14:00:00Z"));
        assert_eq!(run.due[0].key, ReminderKey { installment: 0, offset_days: -3 });
        assert_eq!((run.due[0].amount, run.next_at), (10_000, Some(at("2026-12-15T14:00:00Z"))));
        let sent = [run.due[0].key];
        assert!(reminders_at(&i, &s, TZ, &sent, at("2026-12-12T15:00:00Z")).due.is_empty(), "sent once");
        // Back after a long outage, only the latest reminder of the morning goes; none at night.
        let night = reminders_at(&i, &s, TZ, &sent, at("2026-12-19T03:00:00Z"));
        assert!(night.due.is_empty(), "the day-3 reminder's morning is over 12 hours past");
        assert_eq!(night.next_at, Some(at("2026-12-22T14:00:00Z")));
    }

    #[test]
    fn nothing_is_due_once_paid_voided_or_before_the_send() {
        let s = ReminderSettings::default();
        let mut i = invoice(&[], 10_000);
        i.status = InvoiceStatus::Paid;
        assert_eq!(
            reminders_at(&i, &s, TZ, &[], at("2026-12-15T14:00:00Z")),
            ReminderRun { due: vec![], next_at: None }
        );
        let mut late = invoice(&[], 0);
        late.sent_at = Some(at("2026-12-13T12:00:00Z"));
        assert!(
            reminders_at(&late, &s, TZ, &[], at("2026-12-13T13:00:00Z")).due.is_empty(),
            "sent after the -3 moment"
        );
    }

    #[test]
    fn each_instalment_left_short_has_its_own_schedule() {
        let s = ReminderSettings::default();
        // The first is paid: only the second is reminded, for what is left of it.
        let i = invoice(&[("2026-12-01", 5_000), ("2026-12-15", 5_000)], 6_000);
        let run = reminders_at(&i, &s, TZ, &[], at("2026-12-15T14:00:00Z"));
        assert_eq!(
            run.due,
            vec![DueReminder {
                key: ReminderKey { installment: 2, offset_days: 0 },
                amount: 4_000,
                due_date: DueDate::parse("2026-12-15").unwrap(),
            }]
        );
    }

    #[test]
    fn settings_are_checked_field_by_field() {
        let mut errors = FieldErrors::new();
        let input = ReminderSettingsInput {
            offset_days: Some(vec![7, -3, 7, 400]),
            channels: Some(vec!["sms".into(), "fax".into()]),
            time_of_day: Some("9am".into()),
        };
        let next = ReminderSettings::default().updated(input, &mut errors);
        let fields: Vec<String> = errors.finish().unwrap_err().details.into_iter().map(|d| d.field).collect();
        assert_eq!(fields, ["reminders.offsetDays[3]", "reminders.channels[1]", "reminders.timeOfDay"]);
        assert_eq!(next.offset_days, [-3, 7]);
        assert_eq!(parse_time_of_day("18:30").map(time_of_day_text), Ok("18:30".to_owned()));
        let mut errors = FieldErrors::new();
        let repeats = ReminderSettingsInput { offset_days: Some(vec![0; MAX_OFFSETS + 1]), ..Default::default() };
        ReminderSettings::default().updated(repeats, &mut errors);
        let fields: Vec<String> = errors.finish().unwrap_err().details.into_iter().map(|d| d.field).collect();
        assert_eq!(fields, ["reminders.offsetDays"], "counted as given, as the document counts them");
    }
}
