//! The invoicing contract: the same cases on SQLite and PostgreSQL.

use lajan_domain::client::ClientInput;
use lajan_domain::credit_note::{Credit, CreditNoteReason, NewCreditNote};
use lajan_domain::id::IdKind;
use lajan_domain::invoice::InvoiceDetail;
use lajan_domain::invoice::{DueDate, Invoice, InvoiceAction, InvoiceStatus, LineItemInput, price_line_items};
use lajan_domain::invoice_payment::{OutsidePayment, PaymentMethod};
use lajan_domain::money::{Currency, TaxRate};
use lajan_domain::pagination::PageRequest;
use lajan_domain::payment::PaymentLink;
use lajan_domain::payment::{IncomingPayment, IntentStatus, PaymentIntent, new_reference};
use lajan_domain::settings::Settings;
use lajan_domain::statement::MovementKind;
use lajan_domain::{Environment, Tenant, Timestamp};
use lajan_store::Change;
use lajan_store::credit_notes::{CreditNoteEvents, CreditNoteOnInvoice};
use lajan_store::incoming_payments::{IntentTarget, PaidEvents, PaymentApplied, PaymentOnInvoice};
use lajan_store::invoice_payments::PaymentReversal;
use lajan_store::invoices::{InvoiceChanges, InvoiceQuery};
use lajan_store::messages::{InvoiceSending, MessageQuery};
use lajan_store::{EventQuery, NewEvent, Store, StoreError};
use std::sync::Arc;

use lajan_store::contract;

async fn tenant(store: &Arc<dyn Store>) -> Tenant {
    lajan_store::testing::test_tenant(store).await
}

async fn client(store: &Arc<dyn Store>, t: &Tenant) -> String {
    let c = ClientInput { first_name: Some("Marie".into()), last_name: Some("Jean".into()), ..Default::default() }
        .into_client(IdKind::Client.generate(), Timestamp::now(), lajan_domain::phone::PhoneCountry::HAITI)
        .unwrap()
        .0;
    store
        .create_client(t, &c, &NewEvent { event_type: "client.created", object: serde_json::json!({}) }, None)
        .await
        .unwrap();
    c.id
}

fn message_ev(m: &lajan_domain::message::Message) -> NewEvent {
    NewEvent { event_type: "message.sent", object: serde_json::json!({ "id": m.id, "status": m.status.as_str() }) }
}

fn ev(d: &InvoiceDetail) -> NewEvent {
    NewEvent {
        event_type: "invoice.created",
        object: serde_json::json!({ "id": d.invoice.id, "status": d.invoice.status.as_str() }),
    }
}

fn link_ev(l: &PaymentLink) -> NewEvent {
    NewEvent { event_type: "payment_link.paid", object: serde_json::json!({ "id": l.id }) }
}

fn received_ev(r: &PaymentOnInvoice) -> NewEvent {
    NewEvent {
        event_type: "invoice.payment_received",
        object: serde_json::json!({ "id": r.payment.id, "invoiceId": r.invoice.invoice.id, "amount": r.payment.amount }),
    }
}

/// The events of a payment counted, as the services build them (reduced to what tests read).
fn counting_events() -> PaidEvents<'static> {
    PaidEvents { received: &received_ev, invoice: &ev, link: &link_ev }
}

async fn invoice(store: &Arc<dyn Store>, t: &Tenant, client_id: &str, price: &str) -> InvoiceDetail {
    let (lines, totals) = price_line_items(
        &[LineItemInput {
            description: Some("Loan fee".into()),
            quantity: Some("1".into()),
            unit_price: Some(price.into()),
            tax_rate: None,
        }],
        TaxRate::default(),
    )
    .unwrap();
    let now = Timestamp::now();
    let id = IdKind::Invoice.generate();
    let intent = PaymentIntent {
        id: IdKind::PaymentIntent.generate(),
        org_id: t.org_id.clone(),
        env: t.env,
        amount: totals.total,
        currency: Currency::Htg,
        reference: new_reference(),
        status: IntentStatus::Active,
        amount_received: 0,
        invoice_id: Some(id.clone()),
        payment_link_id: None,
        created_at: now,
        paid_at: None,
        expires_at: None,
    };
    let inv = Invoice {
        id,
        number: String::new(),
        client_id: client_id.into(),
        currency: Currency::Htg,
        status: InvoiceStatus::Draft,
        due_date: DueDate::parse("2026-12-01").unwrap(),
        memo: None,
        line_items: lines,
        totals,
        amount_paid: 0,
        amount_overpaid: 0,
        amount_credited: 0,
        installments: Vec::new(),
        apply_credit_balance: false,
        payment_intent_id: intent.id.clone(),
        created_at: now,
        updated_at: now,
        sent_at: None,
        paid_at: None,
        voided_at: None,
        void_reason: None,
    };
    let draft = move |_: &Settings| Ok((inv.clone(), intent.clone()));
    store.create_invoice(t, &draft, &ev, None, None).await.unwrap()
}

fn payment(t: &Tenant, memo: &str, amount: i64, asset: &str) -> IncomingPayment {
    let id = IdKind::LedgerPayment.generate();
    IncomingPayment {
        tx_hash: format!("{:0>64}", &id[3..]),
        id,
        org_id: t.org_id.clone(),
        env: t.env,
        ledger_seq: 0,
        source_account: "GSOURCE".into(),
        destination_account: "GDEST".into(),
        asset_code: asset.into(),
        amount,
        memo: Some(memo.into()),
        created_at: Timestamp::now(),
        payment_intent_id: None,
        processed_at: None,
    }
}

/// A payment seen on a ledger, recorded as the watcher records one (a fact, whatever is due) and
/// applied.
async fn pay(store: &Arc<dyn Store>, p: &IncomingPayment) -> PaymentApplied {
    assert!(store.record_incoming_payment(p).await.unwrap());
    store.apply_incoming_payment(&p.id, Timestamp::now(), &counting_events()).await.unwrap()
}

contract!(numbers_are_sequential_per_tenant_and_gapless_under_concurrency, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let first = invoice(&store, &t, &c, "10").await;
    assert_eq!(first.invoice.number, "INV-000001");
    assert_eq!(first.client.first_name, "Marie");
    assert_eq!(first.intent.amount, 1000);
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let (store, t, c) = (store.clone(), t.clone(), c.clone());
            tokio::spawn(async move { invoice(&store, &t, &c, "1").await.invoice.number })
        })
        .collect();
    let mut numbers = vec![first.invoice.number.clone()];
    for task in tasks {
        numbers.push(task.await.unwrap());
    }
    numbers.sort();
    let expected: Vec<String> = (1..=21).map(lajan_domain::invoice::invoice_number).collect();
    assert_eq!(numbers, expected, "unique and gapless");
    let live = Tenant::new(t.org_id.clone(), Environment::Live);
    let live_client = client(&store, &live).await;
    assert_eq!(invoice(&store, &live, &live_client, "1").await.invoice.number, "INV-000001", "per environment");
    // A failed creation does not use up a number.
    store.fail_next_commit();
    let failed = tokio::spawn({
        let (store, t, c) = (store.clone(), t.clone(), c.clone());
        async move { invoice(&store, &t, &c, "1").await }
    })
    .await;
    assert!(failed.is_err());
    assert_eq!(invoice(&store, &t, &c, "1").await.invoice.number, "INV-000022");
});

/// Past six digits the number grows (the domain's format, which PostgreSQL's create writes in
/// SQL), and what the create answers is what a read gives back.
async fn numbers_past_six_digits(db: lajan_store::testing::TestStore) {
    let store = db.store.clone();
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    invoice(&store, &t, &c, "1").await;
    db.set_invoice_counter(&t, 999_998).await;
    for expected in ["INV-999999", "INV-1000000"] {
        let created = invoice(&store, &t, &c, "1").await;
        assert_eq!(created.invoice.number, expected);
        let read = store.get_invoice(&t, &created.invoice.id).await.unwrap().unwrap();
        assert_eq!(format!("{read:?}"), format!("{created:?}"), "the create answers what was stored");
    }
    db.cleanup().await;
}

#[tokio::test]
async fn numbers_past_six_digits_keep_the_domains_format_sqlite() {
    numbers_past_six_digits(lajan_store::testing::sqlite().await).await;
}

#[tokio::test]
async fn numbers_past_six_digits_keep_the_domains_format_postgres() {
    let Some(db) = lajan_store::testing::postgres("numbers_past_six_digits").await else { return };
    numbers_past_six_digits(db).await;
}

contract!(drafts_update_and_actions_follow_the_state_machine, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let other = client(&store, &t).await;
    let d = invoice(&store, &t, &c, "10").await;
    let id = d.invoice.id.clone();
    let lines = vec![LineItemInput {
        description: Some("Two".into()),
        quantity: Some("2".into()),
        unit_price: Some("7.5".into()),
        tax_rate: Some("10".into()),
    }];
    let changes = InvoiceChanges {
        client_id: Some(other.clone()),
        line_items: Some(lines),
        memo: Some(Some("Merci".into())),
        ..Default::default()
    };
    let updated = store.update_invoice(&t, &id, &changes, Timestamp::now()).await.unwrap();
    assert_eq!((updated.invoice.totals.total, updated.intent.amount), (1650, 1650), "the intent follows the total");
    assert_eq!(updated.client.id, other);
    let bad_client = InvoiceChanges { client_id: Some("cli_nope".into()), ..Default::default() };
    assert!(
        matches!(store.update_invoice(&t, &id, &bad_client, Timestamp::now()).await, Err(StoreError::Rejected(e)) if e.code == "invalid_client")
    );

    let (sent, changed) =
        store.invoice_action(&id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();
    assert!(changed && sent.invoice.status == InvoiceStatus::Sent && sent.invoice.sent_at.is_some());
    assert!(
        matches!(store.update_invoice(&t, &id, &changes, Timestamp::now()).await, Err(StoreError::Rejected(e)) if e.code == "cannot_update")
    );
    let (viewed, changed) =
        store.invoice_action(&id, InvoiceAction::View, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();
    assert!(changed && viewed.invoice.status == InvoiceStatus::Viewed);
    let (_, changed) =
        store.invoice_action(&id, InvoiceAction::View, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();
    assert!(!changed, "viewing twice records one event");
    let (voided, _) = store
        .invoice_action(&id, InvoiceAction::Void, Some("duplicate"), Change::unkeyed(&t, Timestamp::now(), &ev))
        .await
        .unwrap();
    assert_eq!(voided.invoice.void_reason.as_deref(), Some("duplicate"));
    assert_eq!(voided.intent.status, IntentStatus::Inactive);
    let (_, changed) =
        store.invoice_action(&id, InvoiceAction::Void, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();
    assert!(!changed);
    assert!(
        matches!(store.invoice_action(&id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await, Err(StoreError::Rejected(e)) if e.code == "cannot_send")
    );
    let events = store.list_events(&t, &EventQuery::default()).await.unwrap();
    let types: Vec<_> =
        events.items.iter().map(|e| e.event_type.as_str()).filter(|t| t.starts_with("invoice.")).collect();
    assert_eq!(types, ["invoice.voided", "invoice.viewed", "invoice.sent", "invoice.created"]);
    let other_tenant = Tenant::new(t.org_id.clone(), Environment::Live);
    assert!(store.get_invoice(&other_tenant, &id).await.unwrap().is_none());
    assert!(matches!(
        store
            .invoice_action(&id, InvoiceAction::Void, None, Change::unkeyed(&other_tenant, Timestamp::now(), &ev))
            .await,
        Err(StoreError::NotFound)
    ));
});

contract!(lists_filter_by_status_client_and_search, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let a = invoice(&store, &t, &c, "1").await;
    invoice(&store, &t, &c, "2").await;
    store
        .invoice_action(&a.invoice.id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev))
        .await
        .unwrap();
    let q = |status: Option<InvoiceStatus>, client_id: Option<&str>, search: Option<&str>| InvoiceQuery {
        status,
        client_id: client_id.map(Into::into),
        search: search.map(Into::into),
        page: PageRequest::default(),
    };
    assert_eq!(store.list_invoices(&t, &q(None, None, None)).await.unwrap().total, 2);
    assert_eq!(
        store.list_invoices(&t, &q(Some(InvoiceStatus::Sent), None, None)).await.unwrap().items[0].invoice.id,
        a.invoice.id
    );
    assert_eq!(store.list_invoices(&t, &q(None, Some("cli_x"), None)).await.unwrap().total, 0);
    assert_eq!(store.list_invoices(&t, &q(None, Some(&c), Some("inv-000002"))).await.unwrap().total, 1);
    assert_eq!(store.list_invoices(&t, &q(None, None, Some("marie jean"))).await.unwrap().total, 2);
});

contract!(payments_match_by_memo_and_pay_in_full_only, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let d = invoice(&store, &t, &c, "100").await;
    let id = d.invoice.id.clone();
    let reference = d.intent.reference.clone();
    // A draft is not payable: the money is recorded, the invoice stays a draft.
    assert_eq!(
        pay(&store, &payment(&t, &reference, 100, "HTG")).await,
        PaymentApplied::Matched { intent_id: d.intent.id.clone(), paid: false }
    );
    store.invoice_action(&id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();
    assert_eq!(pay(&store, &payment(&t, "LJWRONG", 9900, "HTG")).await, PaymentApplied::Unmatched);
    assert_eq!(pay(&store, &payment(&t, &reference, 9900, "USD")).await, PaymentApplied::Unmatched, "wrong asset");
    assert_eq!(
        pay(&store, &payment(&t, &reference, 4900, "HTG")).await,
        PaymentApplied::Matched { intent_id: d.intent.id.clone(), paid: false }
    );
    let under = store.get_invoice(&t, &id).await.unwrap().unwrap();
    assert_eq!(
        (under.invoice.status, under.invoice.amount_paid),
        (InvoiceStatus::PartiallyPaid, 5000),
        "underpaid is partly paid"
    );
    assert_eq!(
        pay(&store, &payment(&t, &reference, 6000, "HTG")).await,
        PaymentApplied::Matched { intent_id: d.intent.id.clone(), paid: true }
    );
    let paid = store.get_invoice(&t, &id).await.unwrap().unwrap();
    assert_eq!(
        (paid.invoice.status, paid.invoice.amount_paid, paid.intent.status),
        (InvoiceStatus::Paid, 11000, IntentStatus::Paid)
    );
    assert!(paid.invoice.paid_at.is_some());
    // Every payment in is a record on the invoice, the draft's too, newest first, with its event.
    let records = store.list_invoice_payments(&t, &id, PageRequest::default()).await.unwrap();
    let amounts: Vec<i64> = records.items.iter().map(|p| p.amount).collect();
    assert_eq!((records.total, amounts), (3, vec![6000, 4900, 100]));
    let ledger = store.incoming_payments_for_intent(&d.intent.id).await.unwrap();
    for record in &records.items {
        assert_eq!(
            (record.method, record.recorded_by.clone(), record.reversal.clone()),
            (PaymentMethod::Stellar, lajan_domain::Actor::worker(), None)
        );
        let counted = ledger.iter().find(|p| Some(&p.id) == record.incoming_payment_id.as_ref()).unwrap();
        assert_eq!((record.reference.as_ref(), record.amount), (Some(&counted.tx_hash), counted.amount));
    }
    let received = store
        .list_events(&t, &EventQuery { event_type: Some("invoice.payment_received".into()), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(received.total, 3);
    let other = lajan_domain::Tenant::new(t.org_id.clone(), Environment::Live);
    assert_eq!(store.list_invoice_payments(&other, &id, PageRequest::default()).await.unwrap().total, 0);
    assert!(
        matches!(store.invoice_action(&id, InvoiceAction::Void, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await, Err(StoreError::Rejected(e)) if e.code == "cannot_void")
    );
    assert_eq!(store.incoming_payments_for_intent(&d.intent.id).await.unwrap().len(), 3);
    let seqs: Vec<i64> =
        store.incoming_payments_for_intent(&d.intent.id).await.unwrap().iter().map(|p| p.ledger_seq).collect();
    assert!(seqs.windows(2).all(|w| w[0] <= w[1]), "ledger sequence never falls: {seqs:?}");
    assert!(store.pending_incoming_payments(10).await.unwrap().is_empty());
    let paid_events = store
        .list_events(&t, &EventQuery { event_type: Some("invoice.created".into()), ..Default::default() })
        .await
        .unwrap();
    assert!(paid_events.total >= 1);
    match store.get_payment_intent(&d.intent.id).await.unwrap() {
        Some((intent, IntentTarget::Invoice(inv))) => {
            assert_eq!(intent.status, IntentStatus::Paid);
            assert_eq!(inv.invoice.id, id);
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(store.get_payment_intent("pi_nope").await.unwrap().is_none());
    // Applying twice is harmless; recording a live payment twice is deduplicated by hash.
    let live = payment(&t, &reference, 1, "HTG");
    assert!(store.record_incoming_payment(&live).await.unwrap());
    assert!(!store.record_incoming_payment(&live).await.unwrap());
    let events = counting_events();
    store.apply_incoming_payment(&live.id, Timestamp::now(), &events).await.unwrap();
    assert_eq!(
        store.apply_incoming_payment(&live.id, Timestamp::now(), &events).await.unwrap(),
        PaymentApplied::AlreadyProcessed
    );
});

contract!(received_totals_are_summed_wide_and_never_clamped, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let d = invoice(&store, &t, &c, "100").await;
    let reference = d.intent.reference.clone();
    let near_the_top = i64::MAX - 10;
    // More than a credit balance can hold: left for reconciliation, nothing counted.
    assert_eq!(
        pay(&store, &payment(&t, &reference, near_the_top, "HTG")).await,
        PaymentApplied::TooLarge { intent_id: d.intent.id.clone() }
    );
    let untouched = store.get_invoice(&t, &d.invoice.id).await.unwrap().unwrap();
    assert_eq!((untouched.invoice.amount_paid, untouched.intent.amount_received), (0, 0));
    // The most an amount can be is counted, the rest over what is owed held as credit.
    let most = lajan_domain::money::MAX_CENTS;
    assert_eq!(
        pay(&store, &payment(&t, &reference, most, "HTG")).await,
        PaymentApplied::Matched { intent_id: d.intent.id.clone(), paid: false }
    );
    // A second overpayment the balance cannot hold is refused and left for reconciliation,
    // where clamping would have recorded a balance that is not the money received.
    assert_eq!(
        pay(&store, &payment(&t, &reference, 20_000, "HTG")).await,
        PaymentApplied::TooLarge { intent_id: d.intent.id.clone() }
    );
    let after = store.get_invoice(&t, &d.invoice.id).await.unwrap().unwrap();
    assert_eq!((after.invoice.amount_paid, after.intent.amount_received), (most, most));
    assert_eq!(store.incoming_payments_for_intent(&d.intent.id).await.unwrap().len(), 1);
    assert!(store.pending_incoming_payments(10).await.unwrap().is_empty(), "processed, as unmatched");
});

contract!(a_resubmitted_sandbox_payment_is_recorded_once, |store| {
    let t = tenant(&store).await;
    let first = payment(&t, "LJANY", 500, "HTG");
    let (recorded, _) = store.record_sandbox_payment(&first, 1000).await.unwrap();
    let again = IncomingPayment { id: IdKind::LedgerPayment.generate(), ..first.clone() };
    let (replayed, closes_at) = store.record_sandbox_payment(&again, 1000).await.unwrap();
    assert_eq!(replayed, recorded, "the identical transaction answers with the original");
    assert!(closes_at <= Timestamp::now());
    assert_eq!(store.pending_incoming_payments(10).await.unwrap().len(), 1);
});

contract!(payment_links_deactivate_once_and_get_paid, |store| {
    let t = tenant(&store).await;
    let mk = |amount: i64| {
        let id = IdKind::PaymentLink.generate();
        let now = Timestamp::now();
        PaymentLink {
            id: id.clone(),
            amount,
            currency: Currency::Usd,
            description: "Membership".into(),
            created_at: now,
            expires_at: None,
            intent: PaymentIntent {
                id: IdKind::PaymentIntent.generate(),
                org_id: t.org_id.clone(),
                env: t.env,
                amount,
                currency: Currency::Usd,
                reference: new_reference(),
                status: IntentStatus::Active,
                amount_received: 0,
                invoice_id: None,
                payment_link_id: Some(id),
                created_at: now,
                paid_at: None,
                expires_at: None,
            },
        }
    };
    let a = mk(500);
    let b = mk(700);
    let created = NewEvent { event_type: "payment_link.created", object: serde_json::json!({}) };
    store.create_payment_link(&t, &|_| a.clone(), &|_| created.clone(), None).await.unwrap();
    store.create_payment_link(&t, &|_| b.clone(), &|_| created.clone(), None).await.unwrap();
    let page = store.list_payment_links(&t, PageRequest::default()).await.unwrap();
    assert_eq!((page.total, page.items[0].id.as_str()), (2, b.id.as_str()));
    let deactivated = |l: &PaymentLink| NewEvent {
        event_type: "payment_link.deactivated",
        object: serde_json::json!({ "id": l.id }),
    };
    let off = store.delete_payment_link(&t, &a.id, Timestamp::now(), &deactivated).await.unwrap();
    assert_eq!(off.intent.status, IntentStatus::Inactive);
    assert!(store.get_payment_link(&t, &a.id).await.unwrap().is_none(), "out of the API");
    assert_eq!(store.list_payment_links(&t, PageRequest::default()).await.unwrap().total, 1);
    assert!(matches!(
        store.delete_payment_link(&t, &a.id, Timestamp::now(), &deactivated).await,
        Err(StoreError::NotFound)
    ));
    assert_eq!(
        pay(&store, &payment(&t, &a.intent.reference, 500, "USD")).await,
        PaymentApplied::Matched { intent_id: a.intent.id.clone(), paid: false }
    );
    assert_eq!(
        pay(&store, &payment(&t, &b.intent.reference, 700, "USD")).await,
        PaymentApplied::Matched { intent_id: b.intent.id.clone(), paid: true }
    );
    assert_eq!(store.get_payment_link(&t, &b.id).await.unwrap().unwrap().intent.status, IntentStatus::Paid);
    let gone = store.delete_payment_link(&t, &b.id, Timestamp::now(), &deactivated).await.unwrap();
    assert_eq!(gone.intent.status, IntentStatus::Paid, "a paid link stays paid, and leaves the API");
    assert!(store.get_payment_link(&t, &b.id).await.unwrap().is_none());
    assert!(matches!(
        store.delete_payment_link(&t, "pl_nope", Timestamp::now(), &deactivated).await,
        Err(StoreError::NotFound)
    ));
});

contract!(overdue_candidates_are_sent_or_viewed_and_due, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let a = invoice(&store, &t, &c, "1").await;
    let b = invoice(&store, &t, &c, "1").await;
    store
        .invoice_action(&a.invoice.id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev))
        .await
        .unwrap();
    let found = store.overdue_candidates("2026-12-01", 10).await.unwrap();
    assert_eq!(found.len(), 1, "drafts are not candidates");
    assert_eq!((found[0].1.as_str(), found[0].3.as_str()), (a.invoice.id.as_str(), "UTC"));
    assert!(store.overdue_candidates("2026-11-30", 10).await.unwrap().is_empty());
    let (d, changed) = store
        .invoice_action(&a.invoice.id, InvoiceAction::MarkOverdue, None, Change::unkeyed(&t, Timestamp::now(), &ev))
        .await
        .unwrap();
    assert!(changed && d.invoice.status == InvoiceStatus::Overdue);
    assert!(
        !store
            .invoice_action(&b.invoice.id, InvoiceAction::MarkOverdue, None, Change::unkeyed(&t, Timestamp::now(), &ev))
            .await
            .unwrap()
            .1
    );
    assert!(store.overdue_candidates("2026-12-01", 10).await.unwrap().is_empty());
});

fn render_email(d: &InvoiceDetail) -> Result<Vec<lajan_domain::message::NewMessage>, lajan_domain::Invalid> {
    Ok(vec![lajan_domain::message::NewMessage {
        template: "invoice",
        language: "en".into(),
        id: IdKind::Message.generate(),
        channel: lajan_domain::message::Channel::Email,
        recipient: "marie@example.ht".into(),
        subject: Some(format!("Invoice {}", d.invoice.number)),
        body_text: "Pay".into(),
        body_html: None,
    }])
}

contract!(send_queues_messages_with_the_transition, |store| {
    use lajan_domain::message::SendOutcome;
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let d = invoice(&store, &t, &c, "5").await;
    let paid = counting_events();
    let emailed = InvoiceSending { render: &render_email, paid: &paid, message_event: &message_ev };
    let (sent, messages) = store.send_invoice(&t, &d.invoice.id, Timestamp::now(), &emailed, &ev, None).await.unwrap();
    assert_eq!((sent.invoice.status, messages.len()), (InvoiceStatus::Sent, 1));
    let listed = store.list_messages(&t, &MessageQuery::default()).await.unwrap();
    assert_eq!((listed.total, listed.items[0].status.as_str()), (1, "delivered"), "simulated in the sandbox");
    assert!(listed.items[0].provider_id.as_deref().is_some_and(|p| p.starts_with("sandbox_")));
    let about = MessageQuery { invoice_id: Some(d.invoice.id.clone()), ..MessageQuery::default() };
    assert_eq!(store.list_messages(&t, &about).await.unwrap().total, 1);
    let failed = MessageQuery { status: Some(lajan_domain::message::MessageStatus::Failed), ..MessageQuery::default() };
    assert_eq!(store.list_messages(&t, &failed).await.unwrap().total, 0);
    let one = store.get_message(&t, &listed.items[0].id).await.unwrap().unwrap();
    assert_eq!((one.template.as_str(), one.language.as_str()), ("invoice", "en"));
    assert_eq!(listed.items[0].subject.as_deref(), Some("Invoice INV-000001"));
    assert!(
        store.claim_messages(Timestamp::now(), 60_000, 10).await.unwrap().is_empty(),
        "sandbox messages are never delivered"
    );
    let none = |_: &InvoiceDetail| Err(lajan_domain::Invalid::new("no_channel_available", "none"));
    let unreachable = InvoiceSending { render: &none, paid: &paid, message_event: &message_ev };
    let d2 = invoice(&store, &t, &c, "5").await;
    assert!(
        matches!(store.send_invoice(&t, &d2.invoice.id, Timestamp::now(), &unreachable, &ev, None).await, Err(StoreError::Rejected(e)) if e.code == "no_channel_available")
    );
    assert_eq!(
        store.get_invoice(&t, &d2.invoice.id).await.unwrap().unwrap().invoice.status,
        InvoiceStatus::Draft,
        "nothing changed"
    );

    let live = Tenant::new(t.org_id.clone(), Environment::Live);
    let lc = client(&store, &live).await;
    let ld = invoice(&store, &live, &lc, "5").await;
    let now = Timestamp::now();
    store.send_invoice(&live, &ld.invoice.id, now, &emailed, &ev, None).await.unwrap();
    let claimed = store.claim_messages(now, 60_000, 10).await.unwrap();
    assert_eq!(claimed.len(), 1);
    assert!(store.claim_messages(now, 60_000, 10).await.unwrap().is_empty(), "claimed messages are leased");
    let retry_at = now.plus_millis(1000);
    let retried = SendOutcome::Retry { error: "timeout".into(), retry_at };
    let queued = store.finish_message(&claimed[0].id, now, &retried, &message_ev).await.unwrap();
    assert_eq!(queued.map(|m| m.status.as_str()), Some("queued"));
    assert!(store.claim_messages(now, 60_000, 10).await.unwrap().is_empty());
    let again = store.claim_messages(retry_at, 60_000, 10).await.unwrap();
    assert_eq!(again[0].attempts, 2);
    let taken = SendOutcome::Sent { provider_id: Some("SM1".into()) };
    store.finish_message(&again[0].id, retry_at, &taken, &message_ev).await.unwrap();
    let listed = store.list_messages(&live, &MessageQuery::default()).await.unwrap();
    assert_eq!((listed.items[0].status.as_str(), listed.items[0].last_error.as_deref()), ("sent", None));
    assert!(listed.items[0].sent_at.is_some());
    let refused = SendOutcome::Failed { error: "late".into() };
    assert!(
        store.finish_message(&again[0].id, retry_at, &refused, &message_ev).await.unwrap().is_none(),
        "a message that moved on is left as it is"
    );
    // One event per move: the sandbox's simulated sent and delivered, the live one's sent.
    let of = |t: &Tenant, kind: &str| {
        let q = lajan_store::EventQuery { event_type: Some(kind.into()), ..Default::default() };
        let (store, t) = (store.clone(), t.clone());
        async move { store.list_events(&t, &q).await.unwrap().items.len() }
    };
    assert_eq!((of(&t, "message.sent").await, of(&t, "message.delivered").await), (1, 1));
    assert_eq!((of(&live, "message.sent").await, of(&live, "message.failed").await), (1, 0));
});

contract!(maintained_totals_match_a_scan_through_every_transition, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let mut ids = Vec::new();
    for _ in 0..8 {
        ids.push(invoice(&store, &t, &c, "5").await);
    }
    let act = |i: usize, action| {
        let (store, t, id) = (store.clone(), t.clone(), ids[i].invoice.id.clone());
        async move {
            store.invoice_action(&id, action, Some("typo"), Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap()
        }
    };
    for i in 0..6 {
        act(i, InvoiceAction::Send).await;
    }
    act(1, InvoiceAction::View).await;
    act(2, InvoiceAction::MarkOverdue).await;
    act(3, InvoiceAction::Void).await;
    act(6, InvoiceAction::Void).await;
    pay(&store, &payment(&t, &ids[4].intent.reference, 500, "HTG")).await;
    pay(&store, &payment(&t, &ids[5].intent.reference, 100, "HTG")).await;
    // Two rounds: as the triggers left the counts, then after folding (PostgreSQL's deltas).
    for round in 0..2 {
        let q = |status| InvoiceQuery { status, ..Default::default() };
        // Filtering by client goes through a COUNT over the rows: the reference for the kept counts.
        let scan = |status| InvoiceQuery { status, client_id: Some(c.clone()), ..Default::default() };
        let all = store.list_invoices(&t, &q(None)).await.unwrap();
        assert_eq!(all.total, 8, "round {round}");
        let mut sum = 0;
        for &status in InvoiceStatus::ALL {
            let kept = store.list_invoices(&t, &q(Some(status))).await.unwrap();
            let counted = store.list_invoices(&t, &scan(Some(status))).await.unwrap();
            assert_eq!(kept.total, counted.total, "{status:?}, round {round}");
            assert_eq!(kept.total, kept.items.len() as u64, "{status:?}, round {round}");
            sum += kept.total;
        }
        assert_eq!(sum, 8);
        let mut by = Vec::new();
        for &status in InvoiceStatus::ALL {
            by.push(store.list_invoices(&t, &q(Some(status))).await.unwrap().total);
        }
        // draft, sent, viewed, partially_paid, paid, overdue, void
        assert_eq!(by, [1, 1, 1, 1, 1, 1, 2], "round {round}");
        store.compact_counts().await.unwrap();
    }
    let other = Tenant::new(t.org_id.clone(), Environment::Live);
    assert_eq!(store.list_invoices(&other, &InvoiceQuery::default()).await.unwrap().total, 0, "per environment");
});

contract!(a_simulated_payment_pays_only_what_is_due, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let d = invoice(&store, &t, &c, "100").await;
    let reference = d.intent.reference.clone();
    let (first, _) = store.record_sandbox_payment(&payment(&t, &reference, 6000, "HTG"), 1000).await.unwrap();
    // Recorded and not yet applied, it still counts: 40.00 is due, so 40.00 more goes through...
    let (second, _) = store.record_sandbox_payment(&payment(&t, &reference, 4000, "HTG"), 1000).await.unwrap();
    // ...and then nothing is due, before or after the payments are applied.
    let refused = store.record_sandbox_payment(&payment(&t, &reference, 1, "HTG"), 1000).await;
    assert!(matches!(refused, Err(StoreError::Rejected(ref e)) if e.code == "cannot_pay"), "{refused:?}");
    for p in [&first, &second] {
        store.apply_incoming_payment(&p.id, Timestamp::now(), &counting_events()).await.unwrap();
    }
    let refused = store.record_sandbox_payment(&payment(&t, &reference, 1, "HTG"), 1000).await;
    assert!(matches!(refused, Err(StoreError::Rejected(_))), "{refused:?}");
    assert_eq!(store.incoming_payments_for_intent(&d.intent.id).await.unwrap().len(), 2);
    // A memo that names no intent is the ledger's business: recorded, to be left unmatched.
    assert!(store.record_sandbox_payment(&payment(&t, "LJNOBODY", 1, "HTG"), 1000).await.is_ok());
});

contract!(a_payment_received_outside_lajan_counts_as_a_ledger_payment_does, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let d = invoice(&store, &t, &c, "100").await;
    let id = d.invoice.id.clone();
    let cash = |amount| OutsidePayment {
        amount,
        method: PaymentMethod::Cash,
        reference: Some("REC-1".into()),
        paid_at: Timestamp::from_millis(1_795_867_200_000),
    };
    let clerk = t.clone().acting_as(lajan_domain::Actor::User("usr_clerk".into()));
    let refused =
        store.record_outside_payment(&clerk, &id, &cash(100), Timestamp::now(), &counting_events(), None).await;
    assert!(matches!(refused, Err(StoreError::Rejected(ref e)) if e.code == "cannot_pay"), "a draft: {refused:?}");
    store.invoice_action(&id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();
    let first = store
        .record_outside_payment(&clerk, &id, &cash(4000), Timestamp::now(), &counting_events(), None)
        .await
        .unwrap();
    assert_eq!((first.invoice.invoice.amount_paid, first.invoice.invoice.status), (4000, InvoiceStatus::PartiallyPaid));
    assert_eq!(first.payment.recorded_by, clerk.actor);
    // Counted on the intent, as a ledger payment is: the payment page asks for what is left.
    assert_eq!(store.get_invoice(&t, &id).await.unwrap().unwrap().intent.amount_received, 4000);
    let rest = store
        .record_outside_payment(&clerk, &id, &cash(6000), Timestamp::now(), &counting_events(), None)
        .await
        .unwrap();
    assert_eq!((rest.invoice.invoice.status, rest.invoice.intent.status), (InvoiceStatus::Paid, IntentStatus::Paid));
    let listed = store.list_invoice_payments(&t, &id, PageRequest::default()).await.unwrap();
    assert_eq!(listed.items.iter().map(|p| p.amount).collect::<Vec<_>>(), vec![6000, 4000]);
    assert!(listed.items.iter().all(|p| p.incoming_payment_id.is_none() && p.method == PaymentMethod::Cash));
    let received = store
        .list_events(&t, &EventQuery { event_type: Some("invoice.payment_received".into()), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(received.total, 2);
    let other = lajan_domain::Tenant::new(t.org_id.clone(), Environment::Live);
    let missing = store.record_outside_payment(&other, &id, &cash(1), Timestamp::now(), &counting_events(), None).await;
    assert!(matches!(missing, Err(StoreError::NotFound)), "{missing:?}");
});

fn reversal<'a>(invoice_id: &'a str, payment_id: &'a str, reason: &'a str) -> PaymentReversal<'a> {
    PaymentReversal { invoice_id, payment_id, reason }
}

contract!(a_reversed_payment_stops_counting_and_reopens_a_paid_invoice, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let d = invoice(&store, &t, &c, "100").await;
    let id = d.invoice.id.clone();
    store.invoice_action(&id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();
    let cash =
        OutsidePayment { amount: 10_000, method: PaymentMethod::Cash, reference: None, paid_at: Timestamp::now() };
    let paid = store.record_outside_payment(&t, &id, &cash, Timestamp::now(), &counting_events(), None).await.unwrap();
    assert_eq!(paid.invoice.invoice.status, InvoiceStatus::Paid);
    let payment_id = paid.payment.id.clone();
    let reversed_ev = |r: &PaymentOnInvoice| NewEvent {
        event_type: "invoice.payment_reversed",
        object: serde_json::json!({ "id": r.invoice.invoice.id, "payment": r.payment.id }),
    };
    let undone = store
        .reverse_invoice_payment(&t, reversal(&id, &payment_id, "a mistake"), Timestamp::now(), &reversed_ev, None)
        .await
        .unwrap();
    assert_eq!(
        (undone.invoice.invoice.status, undone.invoice.invoice.amount_paid, undone.invoice.intent.status),
        (InvoiceStatus::Sent, 0, IntentStatus::Active)
    );
    assert_eq!((undone.invoice.invoice.paid_at, undone.invoice.intent.paid_at), (None, None));
    assert_eq!(undone.payment.reversal.as_ref().map(|r| r.reason.as_str()), Some("a mistake"));
    let listed = store.list_invoice_payments(&t, &id, PageRequest::default()).await.unwrap();
    assert_eq!((listed.total, listed.items[0].counted()), (1, 0), "kept, counting nothing");
    let twice = store
        .reverse_invoice_payment(&t, reversal(&id, &payment_id, "again"), Timestamp::now(), &reversed_ev, None)
        .await;
    assert!(matches!(twice, Err(StoreError::Rejected(ref e)) if e.code == "cannot_reverse"), "{twice:?}");
    let other = invoice(&store, &t, &c, "5").await;
    let wrong = store
        .reverse_invoice_payment(
            &t,
            reversal(&other.invoice.id, &payment_id, "x"),
            Timestamp::now(),
            &reversed_ev,
            None,
        )
        .await;
    assert!(matches!(wrong, Err(StoreError::NotFound)), "{wrong:?}");
});

/// A small deterministic generator: the same sequences on both backends and on every run.
struct Sequence(u64);

impl Sequence {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn credit_note_ev(c: &CreditNoteOnInvoice) -> NewEvent {
    NewEvent { event_type: "credit_note.created", object: serde_json::json!({ "id": c.credit_note.id }) }
}

contract!(every_invoices_balance_is_exact_and_explained_by_its_statement, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let mut random = Sequence(0x5eed_1a7a);
    let reversed_ev = |r: &PaymentOnInvoice| NewEvent {
        event_type: "invoice.payment_reversed",
        object: serde_json::json!({ "id": r.invoice.invoice.id, "payment": r.payment.id }),
    };
    let (mut held_for_client, mut seen) = (0, std::collections::BTreeSet::new());
    let paid = counting_events();
    let render = |_: &InvoiceDetail| Ok(Vec::new());
    let sending = InvoiceSending { render: &render, paid: &paid, message_event: &message_ev };
    for round in 0..32 {
        let d = invoice(&store, &t, &c, "100").await;
        let id = d.invoice.id.clone();
        if random.below(2) == 0 {
            // Paid first from what earlier rounds left on the client's balance.
            let apply = InvoiceChanges { apply_credit_balance: Some(true), ..InvoiceChanges::default() };
            store.update_invoice(&t, &id, &apply, Timestamp::now()).await.unwrap();
            store.send_invoice(&t, &id, Timestamp::now(), &sending, &ev, None).await.unwrap();
        } else {
            store
                .invoice_action(&id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev))
                .await
                .unwrap();
        }
        // Every change of the round asks for one moment, as writers that read the clock in the
        // same millisecond (or before waiting for the invoice's locks) do: the statement must
        // still tell them in the order they committed.
        let moment = Timestamp::from_millis(Timestamp::now().as_millis() + 3_600_000);
        let mut counting: Vec<String> = Vec::new();
        for step in 0..(4 + random.below(10)) {
            let amount = 1 + i64::try_from(random.below(6_000)).unwrap();
            match random.below(10) {
                0..=2 => {
                    let p = payment(&t, &d.intent.reference, amount, "HTG");
                    assert!(store.record_incoming_payment(&p).await.unwrap());
                    store.apply_incoming_payment(&p.id, moment, &counting_events()).await.unwrap();
                }
                3..=5 => {
                    let cash = OutsidePayment {
                        amount,
                        method: PaymentMethod::Cash,
                        reference: None,
                        paid_at: Timestamp::now(),
                    };
                    match store.record_outside_payment(&t, &id, &cash, moment, &counting_events(), None).await {
                        Ok(_) | Err(StoreError::Rejected(_)) => {}
                        Err(e) => panic!("round {round} step {step}: {e:?}"),
                    }
                }
                6..=8 if !counting.is_empty() => {
                    let which = usize::try_from(random.below(counting.len() as u64)).unwrap();
                    let payment_id = counting.swap_remove(which);
                    let undo = reversal(&id, &payment_id, "a mistake");
                    // Refused only where the overpayment it made was applied to a later invoice.
                    match store.reverse_invoice_payment(&t, undo, moment, &reversed_ev, None).await {
                        Ok(_) => {}
                        Err(StoreError::Rejected(e)) if e.code == "credit_balance_spent" => {}
                        Err(e) => panic!("round {round} step {step}: {e:?}"),
                    }
                }
                9 if random.below(3) > 0 => {
                    // An amount, or part of the invoice's one line (units in ten-thousandths).
                    let credit = if random.below(2) == 0 {
                        Credit::Amount(amount)
                    } else {
                        Credit::Lines(vec![(1, Some(1 + i64::try_from(random.below(6_000)).unwrap()))])
                    };
                    let note = NewCreditNote { credit, reason: CreditNoteReason::Waiver, memo: None };
                    let events = CreditNoteEvents { changed: &credit_note_ev, paid: &counting_events() };
                    let issued = store.issue_credit_note(&t, &id, &note, moment, &events, None).await;
                    assert!(matches!(issued, Ok(_) | Err(StoreError::Rejected(_))), "{issued:?}");
                }
                6..=9 if random.below(2) == 0 => {
                    let notes = store.invoice_credit_notes(&t, &id).await.unwrap();
                    if let Some(note) = notes.iter().find(|n| n.voided.is_none()) {
                        let voided = store.void_credit_note(&t, &id, &note.id, moment, &credit_note_ev, None).await;
                        assert!(matches!(voided, Ok(_) | Err(StoreError::Rejected(_))), "{voided:?}");
                    }
                }
                _ => {
                    let voided =
                        store.invoice_action(&id, InvoiceAction::Void, None, Change::unkeyed(&t, moment, &ev)).await;
                    assert!(matches!(voided, Ok(_) | Err(StoreError::Rejected(_))), "{voided:?}");
                }
            }
            let listed = store.list_invoice_payments(&t, &id, PageRequest::default()).await.unwrap();
            counting = listed.items.iter().filter(|p| p.reversal.is_none()).map(|p| p.id.clone()).collect();
        }
        let parts = store.invoice_statement_parts(&t, &id).await.unwrap().unwrap();
        let invoice = &parts.invoice.invoice;
        let all: i64 = parts.payments.iter().map(|p| p.amount).sum();
        let reversed: i64 = parts.payments.iter().filter(|p| p.reversal.is_some()).map(|p| p.amount).sum();
        assert_eq!(all - reversed, invoice.amount_paid, "round {round}: payments less reversals were received");
        let credited: i64 = parts.credit_notes.iter().map(|n| n.in_force()).sum();
        assert_eq!(credited, invoice.amount_credited, "round {round}: the credit notes in force");
        let voided = if invoice.status == InvoiceStatus::Void { invoice.totals.total - credited } else { 0 };
        // total - credit notes - payments + reversals, less what a void cancelled, plus what was
        // paid beyond and is held for the client, is what is still owed: exactly, in minor units.
        assert_eq!(
            invoice.totals.total - credited - all + reversed - voided + invoice.amount_overpaid,
            invoice.amount_remaining(),
            "round {round}: {invoice:?}"
        );
        let lines = lajan_domain::statement::statement(invoice, &parts.payments, &parts.credits, &parts.credit_notes);
        assert_eq!(lines.last().map(|l| l.balance), Some(invoice.amount_remaining()), "round {round}: {lines:?}");
        // In the order things happened: what was paid beyond the invoice goes to the client's
        // balance only once nothing is owed, and is taken back only from what a reversal owes.
        for (n, line) in lines.iter().enumerate() {
            let before = line.balance - line.amount;
            match line.kind {
                MovementKind::ToCreditBalance => assert!(before <= 0, "round {round}: line {n} while owing: {lines:?}"),
                MovementKind::FromCreditBalance => assert!(line.balance >= 0, "round {round}: line {n}: {lines:?}"),
                _ => {}
            }
        }
        seen.extend(parts.credits.iter().map(|c| c.cause.as_str()));
        seen.extend(lines.iter().map(|l| l.kind.as_str()));
        if parts.credit_notes.iter().any(|n| !n.lines.is_empty()) {
            seen.insert("credit note of lines");
        }
        let (from_balance, held): (Vec<_>, Vec<_>) = parts.credits.iter().partition(|c| c.cause.pays_invoice());
        let moved: i64 = held.iter().map(|c| c.amount).sum();
        assert_eq!(moved, invoice.amount_overpaid, "round {round}: the credit moves add up to what it holds");
        let paid_from_balance: i64 =
            parts.payments.iter().filter(|p| p.method == PaymentMethod::CreditBalance).map(|p| p.counted()).sum();
        let taken: i64 = from_balance.iter().map(|c| -c.amount).sum();
        assert_eq!(taken, paid_from_balance, "round {round}: what it took from the balance is its payments from it");
        held_for_client += invoice.amount_overpaid - taken;
    }
    let balances = store.client_credit_balances(&t, &c).await.unwrap().unwrap();
    assert_eq!(
        balances.iter().map(|b| b.amount).sum::<i64>(),
        held_for_client,
        "the client's balance is every overpayment less what paid later invoices"
    );
    // The sequences went through every kind of movement, so each identity above was tested.
    for kind in [
        "payment",
        "payment_reversed",
        "voided",
        "to_credit_balance",
        "from_credit_balance",
        "invoice_voided",
        "applied",
        "unapplied",
        "credit_note",
        "credit note of lines",
    ] {
        assert!(seen.contains(kind), "no {kind} in {seen:?}");
    }
});

contract!(credit_notes_lower_what_is_owed_and_are_numbered_per_tenant, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let events = CreditNoteEvents { changed: &credit_note_ev, paid: &counting_events() };
    let note = |amount| NewCreditNote {
        credit: Credit::Amount(amount),
        reason: CreditNoteReason::Rescheduling,
        memo: Some("Hurricane".into()),
    };
    let d = invoice(&store, &t, &c, "100").await;
    let id = d.invoice.id.clone();
    let refused = store.issue_credit_note(&t, &id, &note(1_000), Timestamp::now(), &events, None).await;
    assert!(matches!(refused, Err(StoreError::Rejected(ref e)) if e.code == "cannot_credit"), "a draft: {refused:?}");
    store.invoice_action(&id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev)).await.unwrap();

    // Before any payment: 30.00 off, the payment link asks for 70.00.
    let first = store.issue_credit_note(&t, &id, &note(3_000), Timestamp::now(), &events, None).await.unwrap();
    assert_eq!(first.credit_note.number, "CN-000001");
    assert_eq!((first.invoice.invoice.amount_credited, first.invoice.intent.amount), (3_000, 7_000));
    assert_eq!(first.invoice.invoice.amount_remaining(), 7_000);
    let too_much = store.issue_credit_note(&t, &id, &note(7_001), Timestamp::now(), &events, None).await;
    assert!(matches!(too_much, Err(StoreError::Rejected(ref e)) if e.code == "invalid_amount"), "{too_much:?}");

    // 60.00 paid, then 20.00 more credited: 70.00 - 20.00 = 50.00 asked, 10.00 held for the client.
    pay(&store, &payment(&t, &d.intent.reference, 6_000, "HTG")).await;
    let second = store.issue_credit_note(&t, &id, &note(2_000), Timestamp::now(), &events, None).await.unwrap();
    assert_eq!(second.credit_note.number, "CN-000002");
    let paid = &second.invoice;
    assert_eq!((paid.invoice.status, paid.invoice.amount_overpaid), (InvoiceStatus::Paid, 1_000), "{paid:?}");
    assert_eq!(store.client_credit_balances(&t, &c).await.unwrap().unwrap()[0].amount, 1_000);

    // The first voided: the invoice asks for 30.00 more and reopens; the 10.00 comes back.
    let voided = store.void_credit_note(&t, &id, &first.credit_note.id, Timestamp::now(), &credit_note_ev, None).await;
    let reopened = voided.unwrap().invoice;
    assert_eq!(
        (reopened.invoice.status, reopened.invoice.amount_remaining(), reopened.intent.status),
        (InvoiceStatus::PartiallyPaid, 2_000, IntentStatus::Active)
    );
    assert_eq!(store.client_credit_balances(&t, &c).await.unwrap().unwrap()[0].amount, 0);
    let again = store.void_credit_note(&t, &id, &first.credit_note.id, Timestamp::now(), &credit_note_ev, None).await;
    assert!(matches!(again, Err(StoreError::Rejected(ref e)) if e.code == "cannot_void"), "{again:?}");

    // A credit note that leaves nothing owed pays the invoice; numbers go on per tenant.
    let other = invoice(&store, &t, &c, "5").await;
    store
        .invoice_action(&other.invoice.id, InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev))
        .await
        .unwrap();
    let all =
        store.issue_credit_note(&t, &other.invoice.id, &note(500), Timestamp::now(), &events, None).await.unwrap();
    assert_eq!((all.credit_note.number.as_str(), all.invoice.invoice.status), ("CN-000003", InvoiceStatus::Paid));
    let notes = store.invoice_credit_notes(&t, &id).await.unwrap();
    assert_eq!(notes.iter().map(|n| n.in_force()).collect::<Vec<_>>(), [0, 2_000]);
    let live = Tenant::new(t.org_id.clone(), Environment::Live);
    let elsewhere = store.issue_credit_note(&live, &id, &note(1), Timestamp::now(), &events, None).await;
    assert!(matches!(elsewhere, Err(StoreError::NotFound)), "{elsewhere:?}");
});

contract!(a_clients_invoices_come_newest_first_filtered_by_status_and_bounded, |store| {
    let t = tenant(&store).await;
    let c = client(&store, &t).await;
    let other = client(&store, &t).await;
    let ev = |d: &InvoiceDetail| ev(d);
    let mut made = Vec::new();
    for price in ["1", "2", "3"] {
        made.push(invoice(&store, &t, &c, price).await.invoice.id);
    }
    invoice(&store, &t, &other, "4").await;
    store
        .invoice_action(&made[1], InvoiceAction::Send, None, Change::unkeyed(&t, Timestamp::now(), &ev))
        .await
        .unwrap();

    let ids = |found: Vec<InvoiceDetail>| found.into_iter().map(|d| d.invoice.id).collect::<Vec<_>>();
    let all = ids(store.client_invoices(&t, &c, &[], 10).await.unwrap());
    assert_eq!(all, [made[2].clone(), made[1].clone(), made[0].clone()], "the client's own, newest first");
    assert_eq!(ids(store.client_invoices(&t, &c, &[], 2).await.unwrap()), all[..2]);
    let open = [InvoiceStatus::Sent, InvoiceStatus::Overdue];
    assert_eq!(ids(store.client_invoices(&t, &c, &open, 10).await.unwrap()), [made[1].clone()]);
    let live = Tenant { env: Environment::Live, ..t.clone() };
    assert!(store.client_invoices(&live, &c, &[], 10).await.unwrap().is_empty(), "another environment's");
});
