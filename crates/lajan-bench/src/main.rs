//! `lajan-bench`: the pieces `bench/run` drives. `ceiling` serves a same-sized JSON invoice with
//! nothing behind it (the machine's own ceiling for an HTTP JSON GET); `seed` fills a database
//! through the store; `fsync` measures the disk's durable-write rate; `drain` times approved
//! payouts until they are all sent; `disburse` times one disbursement of N CSV rows; `webhooks`
//! times N webhook deliveries from commit to a local receiver's 2xx.

mod channels;
mod disburse;
mod webhooks;

use anyhow::Context;
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use lajan_domain::client::{Client, Language, WalletAddress};
use lajan_domain::id::IdKind;
use lajan_domain::invoice::{DueDate, Invoice, InvoiceStatus, LineItemInput, price_line_items};
use lajan_domain::money::{Currency, TaxRate};
use lajan_domain::org::{Organization, Tier};
use lajan_domain::payment::PaymentIntent;
use lajan_domain::payout::Payout;
use lajan_domain::payout::{ApprovalStatus, AssetCode, ExecStatus, PayoutType};
use lajan_domain::scope::Scope;
use lajan_domain::{Actor, Environment, Tenant, Timestamp};
use lajan_services::events::{invoice_event, payout_event};
use lajan_services::invoices::new_invoice;
use lajan_store::{NewEvent, Store};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A valid account StrKey that the sandbox pays successfully.
const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serves `GET /{anything}` with the bytes of `--body` as application/json.
    Ceiling {
        #[arg(long)]
        listen: String,
        #[arg(long)]
        body: PathBuf,
    },
    /// Creates an Enterprise organization with a sandbox key and seeds it through the store.
    /// Writes `key`, `invoice_ids`, `client_ids` and `org` into `--out`.
    Seed {
        #[arg(long)]
        database_url: String,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 10_000)]
        clients: usize,
        #[arg(long, default_value_t = 100_000)]
        invoices: usize,
        #[arg(long, default_value_t = 100_000)]
        payouts: usize,
        /// Approved payouts left for the executor (timed by `drain`); the others are settled.
        #[arg(long, default_value_t = 0)]
        approved: usize,
        /// Writes in flight at once.
        #[arg(long, default_value_t = 16)]
        concurrency: usize,
    },
    /// Adds `--clients` clients (each with its `client.created` event) to the organization a
    /// `seed` wrote into `--out`, numbered on from those it has, and appends their ids to its
    /// `client_ids`: the scale step grows one organization from 10,000 rows to a million.
    Grow {
        #[arg(long)]
        database_url: String,
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        clients: usize,
        #[arg(long, default_value_t = 16)]
        concurrency: usize,
    },
    /// Writes 4 KiB and fdatasyncs it, over and over, in `--dir`; prints syncs per second.
    Fsync {
        #[arg(long)]
        dir: PathBuf,
        #[arg(long, default_value_t = 3)]
        secs: u64,
    },
    /// Polls the payouts counts until `--expect` more than `--baseline` are completed; prints
    /// payouts per second.
    Drain {
        #[arg(long)]
        base: String,
        #[arg(long)]
        key: String,
        #[arg(long)]
        expect: u64,
        #[arg(long, default_value_t = 0)]
        baseline: u64,
        #[arg(long, default_value_t = 600)]
        timeout_secs: u64,
    },
    /// Creates a disbursement from an N-row CSV through a running Lajan, submits and approves
    /// it, waits until it is completed and downloads its report; prints each step's time.
    Disburse {
        #[arg(long)]
        base: String,
        #[arg(long)]
        key: String,
        #[arg(long, default_value_t = 10_000)]
        items: usize,
        #[arg(long, default_value_t = 600)]
        timeout_secs: u64,
    },
    /// Pays `--payouts` live payouts through the executor against the fake Stellar network
    /// (ledgers closing every `--close-ms`) with each channel count of `--channels`; prints
    /// `channels payouts ledgers per_ledger seconds` for each.
    Channels {
        #[arg(long, value_delimiter = ',', default_value = "0,1,4,16")]
        channels: Vec<u8>,
        #[arg(long, default_value_t = 64)]
        payouts: usize,
        #[arg(long, default_value_t = 500)]
        close_ms: u64,
    },
    /// Subscribes a local receiver (and with `--dead`, an endpoint that never answers) to
    /// `payout.created`, submits a disbursement of `--events` rows, and prints deliveries per
    /// second from the submission to the receiver's last 2xx.
    Webhooks {
        #[arg(long)]
        base: String,
        #[arg(long)]
        key: String,
        #[arg(long, default_value_t = 5_000)]
        events: usize,
        #[arg(long)]
        dead: bool,
        #[arg(long, default_value_t = 300)]
        timeout_secs: u64,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Ceiling { listen, body } => ceiling(&listen, body).await,
        Command::Seed { database_url, out, clients, invoices, payouts, approved, concurrency } => {
            let store = lajan_store::open(&database_url).await.context("opening the database")?;
            store.migrate().await?;
            seed(store, &out, Counts { clients, invoices, payouts, approved }, concurrency.max(1)).await
        }
        Command::Grow { database_url, out, clients, concurrency } => {
            let store = lajan_store::open(&database_url).await.context("opening the database")?;
            grow(store, &out, clients, concurrency.max(1)).await
        }
        Command::Fsync { dir, secs } => fsync(&dir, secs),
        Command::Drain { base, key, expect, baseline, timeout_secs } => {
            drain(&base, &key, expect, baseline, timeout_secs).await
        }
        Command::Disburse { base, key, items, timeout_secs } => {
            disburse::disburse(&base, &key, items, timeout_secs).await
        }
        Command::Channels { channels, payouts, close_ms } => channels::channels(&channels, payouts, close_ms).await,
        Command::Webhooks { base, key, events, dead, timeout_secs } => {
            webhooks::webhooks(&base, &key, events, dead, timeout_secs).await
        }
    }
}

async fn ceiling(listen: &str, body: PathBuf) -> anyhow::Result<()> {
    let bytes = std::fs::read(&body).with_context(|| format!("reading {}", body.display()))?;
    let bytes = axum::body::Bytes::from(bytes);
    let app = axum::Router::new().fallback(move || {
        let bytes = bytes.clone();
        async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], bytes) }
    });
    let listener = tokio::net::TcpListener::bind(listen).await?;
    axum::serve(listener, app).await?;
    Ok(())
}

#[derive(Clone, Copy)]
struct Counts {
    clients: usize,
    invoices: usize,
    payouts: usize,
    approved: usize,
}

fn bar(len: usize, what: &'static str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>9} [{bar:40}] {pos}/{len} {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(what);
    bar
}

/// Runs `make(i)` for i in 0..n with `concurrency` in flight, ticking `bar`.
async fn run_all<F, Fut, T>(n: usize, concurrency: usize, bar: &ProgressBar, make: F) -> anyhow::Result<Vec<T>>
where
    F: Fn(usize) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = anyhow::Result<T>> + Send + 'static,
    T: Send + 'static,
{
    let make = Arc::new(make);
    let next = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let (make, next, bar) = (make.clone(), next.clone(), bar.clone());
        tasks.push(tokio::spawn(async move {
            let mut out = Vec::new();
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= n {
                    return anyhow::Ok(out);
                }
                out.push(make(i).await?);
                bar.inc(1);
            }
        }));
    }
    let mut all = Vec::with_capacity(n);
    for task in tasks {
        all.extend(task.await??);
    }
    bar.finish();
    Ok(all)
}

/// A new Enterprise organization, stored.
async fn bench_org(store: &dyn Store) -> anyhow::Result<Organization> {
    let org = Organization {
        id: IdKind::Organization.generate(),
        name: "Bench MFI".into(),
        tier: Tier::Enterprise,
        created_at: Timestamp::now(),
    };
    store.create_organization(&org).await?;
    Ok(org)
}

/// Clients numbered `from..from + n` (named `Client{i}`, emailed `client{i}@example.ht`, so a
/// search can find one or all), each created with its event; their ids.
async fn seed_clients(
    store: Arc<dyn Store>,
    tenant: &Tenant,
    from: usize,
    n: usize,
    concurrency: usize,
) -> anyhow::Result<Vec<String>> {
    let tenant = tenant.clone();
    run_all(n, concurrency, &bar(n, "clients"), move |i| {
        let (store, tenant, i) = (store.clone(), tenant.clone(), from + i);
        async move {
            let now = Timestamp::now();
            let client = Client {
                id: IdKind::Client.generate(),
                first_name: format!("Client{i}"),
                last_name: "Bench".into(),
                email: Some(format!("client{i}@example.ht")),
                phone_number: None,
                wallet_account_id: Some(WALLET.into()),
                wallet_memo: None,
                language: Language::Ht,
                reminders_enabled: true,
                verification: None,
                created_at: now,
                updated_at: now,
                archived_at: None,
            };
            let event = NewEvent { event_type: "client.created", object: serde_json::json!({ "id": client.id }) };
            store.create_client(&tenant, &client, &event, None).await?;
            Ok(client.id)
        }
    })
    .await
}

async fn grow(store: Arc<dyn Store>, out: &std::path::Path, n: usize, concurrency: usize) -> anyhow::Result<()> {
    let org = std::fs::read_to_string(out.join("org"))?;
    let tenant = Tenant::new(org.trim().to_owned(), Environment::Test);
    let ids_file = out.join("client_ids");
    let mut ids: Vec<String> = std::fs::read_to_string(&ids_file)?.lines().map(str::to_owned).collect();
    ids.extend(seed_clients(store.clone(), &tenant, ids.len(), n, concurrency).await?);
    std::fs::write(ids_file, ids.join("\n"))?;
    // Fold the count deltas (PostgreSQL) the growth left, as the worker does every second while
    // rows come at a real pace: a million at once would otherwise be summed by the first reads.
    store.compact_counts().await?;
    Ok(())
}

async fn seed(store: Arc<dyn Store>, out: &std::path::Path, n: Counts, concurrency: usize) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)?;
    let org = bench_org(store.as_ref()).await?;
    let (secret, key) = lajan_api::keys::issue_key(&org.id, Environment::Test, vec![Scope::All], "bench");
    store.create_api_key(&key, &Actor::System(Actor::SETUP.to_owned())).await?;
    let tenant = Tenant::new(org.id.clone(), Environment::Test);
    std::fs::write(out.join("key"), &secret)?;
    std::fs::write(out.join("org"), &org.id)?;
    std::fs::write(out.join("key_id"), &key.key.id)?;

    let clients = seed_clients(store.clone(), &tenant, 0, n.clients, concurrency).await?;
    std::fs::write(out.join("client_ids"), clients.join("\n"))?;
    let clients = Arc::new(clients);

    let invoice_ids = {
        let (store, tenant, clients) = (store.clone(), tenant.clone(), clients.clone());
        run_all(n.invoices, concurrency, &bar(n.invoices, "invoices"), move |i| {
            let (store, tenant, clients) = (store.clone(), tenant.clone(), clients.clone());
            async move {
                let (invoice, intent) = bench_invoice(&tenant, &clients[i % clients.len()], i)?;
                let event = |d: &_| invoice_event("invoice.created", d, "http://127.0.0.1");
                let draft = move |_: &_| Ok((invoice.clone(), intent.clone()));
                let created = store.create_invoice(&tenant, &draft, &event, None, None).await?;
                Ok(created.invoice.id)
            }
        })
        .await?
    };
    std::fs::write(out.join("invoice_ids"), invoice_ids.join("\n"))?;

    let settled = n.payouts.saturating_sub(n.approved);
    // Payouts already `sent` before the executor runs (i % 4 == 2 among the settled ones).
    std::fs::write(out.join("completed_baseline"), (settled / 4 + usize::from(settled % 4 > 2)).to_string())?;
    {
        let (store, tenant, clients, key_id) = (store.clone(), tenant.clone(), clients.clone(), key.key.id.clone());
        run_all(n.payouts, concurrency, &bar(n.payouts, "payouts"), move |i| {
            let (store, tenant, clients, key_id) = (store.clone(), tenant.clone(), clients.clone(), key_id.clone());
            async move {
                // The settled ones spread over the list filters; the last `approved` wait for the executor.
                let (approval, exec) = if i >= settled {
                    (ApprovalStatus::Approved, ExecStatus::Pending)
                } else {
                    match i % 4 {
                        0 => (ApprovalStatus::Pending, ExecStatus::Pending),
                        1 => (ApprovalStatus::Rejected, ExecStatus::Pending),
                        2 => (ApprovalStatus::Approved, ExecStatus::Sent),
                        _ => (ApprovalStatus::Approved, ExecStatus::Failed),
                    }
                };
                let now = Timestamp::now();
                let payout = Payout {
                    id: IdKind::Payout.generate(),
                    payout_type: PayoutType::Direct,
                    client_id: Some(clients[i % clients.len()].clone()),
                    wallet_account_id: Some(WalletAddress::parse(WALLET).map_err(anyhow::Error::msg)?),
                    asset_amount: bench_payout_cents(i),
                    asset_code: AssetCode::parse("USDC")?,
                    asset_issuer: lajan_ledger::sandbox::issuer("USDC")
                        .map(|issuer| WalletAddress::parse(&issuer))
                        .transpose()
                        .map_err(anyhow::Error::msg)?,
                    memo: Some(format!("loan {i}")),
                    wallet_memo: None,
                    disbursement_id: None,
                    approval,
                    exec,
                    created_by_key: key_id,
                    approval_withdrawn_by: None,
                    created_at: now,
                    updated_at: now,
                };
                let seeded = move |_: &_| (approval, &["payout.created"][..]);
                store.create_payout(&tenant, &payout, &seeded, &payout_event, None).await?;
                Ok(())
            }
        })
        .await?;
    }
    // The sandbox account opens with 1,000,000.00: enough for thousands of these payouts, not
    // for every approved one the execution bench seeds, which must all be paid, not refused.
    let approved_cents: i64 = (settled..n.payouts).map(bench_payout_cents).sum();
    if approved_cents > 0 {
        store.sandbox_top_up(&tenant, "USDC", approved_cents, None).await?;
    }
    Ok(())
}

/// The amount of seeded payout `i`, in cents: 10.00 to 509.99.
fn bench_payout_cents(i: usize) -> i64 {
    1_000 + (i as i64 % 50_000)
}

/// Invoice `i`: two line items, half of them sent (the list target reads `status=sent`).
fn bench_invoice(tenant: &Tenant, client_id: &str, i: usize) -> anyhow::Result<(Invoice, PaymentIntent)> {
    let line = |d: &str, q: &str, p: &str| LineItemInput {
        description: Some(d.into()),
        quantity: Some(q.into()),
        unit_price: Some(p.into()),
        tax_rate: None,
    };
    let items = [line("Loan fee", "1", &format!("{}.50", 100 + i % 900)), line("Insurance", "2", "12.25")];
    let rate = TaxRate::parse("10").map_err(anyhow::Error::msg)?;
    let (line_items, totals) = price_line_items(&items, rate).map_err(|e| anyhow::anyhow!(e.message))?;
    let due = DueDate::parse("2030-01-31").map_err(|e| anyhow::anyhow!(e.message))?;
    let memo = Some("Thank you".to_owned());
    let (mut invoice, intent) = new_invoice(tenant, client_id.to_owned(), Currency::Htg, due, memo, line_items, totals);
    if i.is_multiple_of(2) {
        invoice.status = InvoiceStatus::Sent;
    }
    Ok((invoice, intent))
}

fn fsync(dir: &std::path::Path, secs: u64) -> anyhow::Result<()> {
    let path = dir.join(".lajan-bench-fsync");
    let mut file = std::fs::File::create(&path)?;
    let block = [7u8; 4096];
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < Duration::from_secs(secs) {
        use std::io::Seek;
        file.seek(std::io::SeekFrom::Start(0))?;
        file.write_all(&block)?;
        file.sync_data()?;
        n += 1;
    }
    drop(file);
    std::fs::remove_file(&path)?;
    println!("{:.0}", n as f64 / start.elapsed().as_secs_f64());
    Ok(())
}

async fn drain(base: &str, key: &str, expect: u64, before: u64, timeout_secs: u64) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let completed = || async {
        let body: serde_json::Value = http
            .get(format!("{base}/v1/mfi/payouts?limit=1"))
            .bearer_auth(key)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        anyhow::Ok(body["counts"]["completed"].as_u64().unwrap_or(0))
    };
    let start = Instant::now();
    let bar = bar(expect as usize, "executed");
    loop {
        let done = completed().await?.saturating_sub(before);
        bar.set_position(done);
        if done >= expect {
            break;
        }
        if start.elapsed() > Duration::from_secs(timeout_secs) {
            anyhow::bail!("only {done} of {expect} payouts were sent after {timeout_secs} s");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bar.finish();
    println!("{:.0}", expect as f64 / start.elapsed().as_secs_f64());
    Ok(())
}
