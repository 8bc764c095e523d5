//! The hosted payment page in a real browser: `lajan serve` from an empty database, an invoice
//! sent through the API, headless Chromium at a phone's size driven over WebDriver (chromedriver
//! and fantoccini), the sandbox "Simulate payment" button, and the invoice paid as the API then
//! reports it; and the console, signed in as an admin the CLI created, every page at a phone's and a
//! desktop's width; the console's two journeys (`browser/journeys.rs`); and a receiver registering
//! a wallet on a phone in Creole (`browser/registration.rs`). Screenshots land in
//! `target/browser/` for people to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver`. Without them the test says why and passes,
//! unless `LAJAN_REQUIRE_BROWSER` is set (CI sets it once it has installed both).

#[path = "browser/journeys.rs"]
mod journeys;
#[path = "browser/phones.rs"]
mod phones;
#[path = "browser/registration.rs"]
mod registration;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Serve, free_port};
use anyhow::{Context, bail, ensure};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// A common phone (Pixel 7 class): viewport in CSS pixels, and device pixel ratio.
const PHONE: (u32, u32) = (412, 915);
const PHONE_DPR: f64 = 2.625;

/// The browser and its driver, or `None` (after saying why) when the test cannot run here.
fn browser_or_skip() -> Option<(&'static str, &'static str)> {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER].into_iter().filter(|p| !Path::new(p).is_file()).collect();
    if missing.is_empty() {
        return Some((CHROMIUM, CHROMEDRIVER));
    }
    let why = format!("{} not found (Debian packages chromium and chromium-driver)", missing.join(" and "));
    if std::env::var_os("LAJAN_REQUIRE_BROWSER").is_some() {
        panic!("LAJAN_REQUIRE_BROWSER is set but {why}");
    }
    eprintln!("SKIPPED the browser test: {why}. Set LAJAN_REQUIRE_BROWSER=1 to make this a failure.");
    None
}

/// The last `n` lines of a log file, to show when the test fails.
fn tail(path: &Path, n: usize) -> String {
    let log = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A child process stopped with SIGTERM (SIGKILL after a grace period) when dropped, so nothing
/// outlives the test even when an assertion fails. With `group`, the child leads its own process
/// group and the whole group is signalled: chromedriver's Chromium processes go with it.
struct Guard {
    name: &'static str,
    child: Option<Child>,
    group: bool,
    log: PathBuf,
}

fn signal(sig: &str, target: &str) -> bool {
    Command::new("kill")
        .args([sig, "--", target])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn wait_until(timeout: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    loop {
        if done() {
            return true;
        }
        if started.elapsed() > timeout {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Guard {
    fn spawn(name: &'static str, command: &mut Command, group: bool, log: PathBuf) -> Self {
        if group {
            command.process_group(0);
        }
        let child = command.spawn().unwrap_or_else(|e| panic!("spawn {name}: {e}"));
        Guard { name, child: Some(child), group, log }
    }

    fn exited(&mut self) -> Option<ExitStatus> {
        self.child.as_mut().and_then(|c| c.try_wait().ok().flatten())
    }

    /// SIGTERM, wait up to 10 s, then SIGKILL. Returns how the child ended.
    fn stop(&mut self) -> Option<ExitStatus> {
        let mut child = self.child.take()?;
        let target = if self.group { format!("-{}", child.id()) } else { child.id().to_string() };
        let mut status = child.try_wait().ok().flatten();
        if status.is_none() {
            signal("-TERM", &target);
            wait_until(Duration::from_secs(10), || {
                status = child.try_wait().ok().flatten();
                status.is_some()
            });
        }
        if status.is_none() {
            eprintln!("{} ignored SIGTERM for 10 s; killing it", self.name);
            signal("-KILL", &target);
            status = child.wait().ok();
        }
        // The group's other members (Chromium) are not our children: give them a moment to go.
        if self.group && !wait_until(Duration::from_secs(5), || !signal("-0", &target)) {
            signal("-KILL", &target);
        }
        status
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if self.child.is_none() {
            return;
        }
        if std::thread::panicking() {
            eprintln!("--- last lines from {} ---\n{}\n---", self.name, tail(&self.log, 40));
        }
        self.stop();
    }
}

/// Starts chromedriver on `port` (loopback only, its default) and waits until it reports ready.
async fn start_chromedriver(binary: &str, port: u16, log: PathBuf, http: &reqwest::Client) -> Guard {
    let mut driver = Guard::spawn(
        "chromedriver",
        Command::new(binary)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        true,
        log,
    );
    let started = Instant::now();
    loop {
        let status = http.get(format!("http://127.0.0.1:{port}/status")).send().await;
        if let Ok(r) = status
            && let Ok(body) = r.json::<Value>().await
            && body["value"]["ready"] == true
        {
            return driver;
        }
        assert!(driver.exited().is_none(), "chromedriver exited: {:?}", driver.exited());
        assert!(started.elapsed() < Duration::from_secs(20), "chromedriver did not become ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A WebDriver session with headless Chromium at a phone's size.
async fn open_browser(chromium: &str, driver_port: u16, profile: &Path) -> anyhow::Result<Client> {
    let (width, height) = PHONE;
    let args = [
        "--headless=new".to_owned(),
        "--no-sandbox".to_owned(), // the sandbox runs as root
        "--disable-gpu".to_owned(),
        "--disable-dev-shm-usage".to_owned(),
        "--disable-quic".to_owned(),
        "--no-first-run".to_owned(),
        "--disable-background-networking".to_owned(),
        "--disable-component-update".to_owned(),
        "--disable-sync".to_owned(),
        format!("--user-data-dir={}", profile.display()),
        format!("--window-size={width},{height}"),
    ];
    // Headless Chromium clamps windows to at least 500 px wide and draws desktop scrollbars, so the
    // window size alone is no phone: emulating one also gives the viewport meta tag, overlay
    // scrollbars, touch and a phone's pixel density.
    let mobile = json!({ "width": width, "height": height, "pixelRatio": PHONE_DPR, "mobile": true, "touch": true });
    let capabilities = json!({
        "browserName": "chrome",
        "goog:chromeOptions": { "binary": chromium, "args": args, "mobileEmulation": { "deviceMetrics": mobile } },
    });
    let Value::Object(capabilities) = capabilities else { unreachable!() };
    let mut builder = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
    builder.capabilities(capabilities);
    tokio::time::timeout(Duration::from_secs(60), builder.connect(&format!("http://127.0.0.1:{driver_port}")))
        .await
        .context("Chromium did not start within 60 s")?
        .context("new WebDriver session")
}

/// Chrome DevTools Protocol commands through chromedriver's `goog/cdp/execute` endpoint.
struct Cdp {
    http: reqwest::Client,
    url: String,
}

impl Cdp {
    async fn new(http: &reqwest::Client, driver_port: u16, browser: &Client) -> anyhow::Result<Self> {
        let session = browser.session_id().await?.context("no WebDriver session id")?;
        Ok(Cdp {
            http: http.clone(),
            url: format!("http://127.0.0.1:{driver_port}/session/{session}/goog/cdp/execute"),
        })
    }

    async fn execute(&self, cmd: &str, params: Value) -> anyhow::Result<Value> {
        let response = self.http.post(&self.url).json(&json!({ "cmd": cmd, "params": params })).send().await?;
        let status = response.status();
        let body: Value = response.json().await?;
        ensure!(status.is_success(), "{cmd}: {status} {body}");
        Ok(body["value"].clone())
    }

    /// Emulates the phone with a viewport `height` CSS pixels tall.
    async fn phone(&self, height: u32) -> anyhow::Result<()> {
        self.screen(&Screen { width: PHONE.0, height, dpr: PHONE_DPR, mobile: true }).await
    }

    async fn screen(&self, s: &Screen) -> anyhow::Result<()> {
        let metrics = json!({ "width": s.width, "height": s.height, "deviceScaleFactor": s.dpr, "mobile": s.mobile });
        self.execute("Emulation.setDeviceMetricsOverride", metrics).await.map(drop)
    }
}

/// A screen to emulate: its viewport in CSS pixels, pixel density, and whether it is a phone's.
#[derive(Clone, Copy)]
struct Screen {
    width: u32,
    height: u32,
    dpr: f64,
    mobile: bool,
}

const DESKTOP: Screen = Screen { width: 1280, height: 800, dpr: 1.0, mobile: false };
const PHONE_SCREEN: Screen = Screen { width: PHONE.0, height: PHONE.1, dpr: PHONE_DPR, mobile: true };

/// Every shown element that reaches past the viewport's left or right edge (as `tag#id.class
/// left-right`, the first 10): one inside a box that scrolls or clips is cut off all the same.
const PAST_THE_EDGES: &str = "const width = document.documentElement.clientWidth; const found = [];
    for (const e of document.body.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if ((r.width > 0 || r.height > 0) && (r.right > width + 0.5 || r.left < -0.5)) {
        found.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(r.left)}-${Math.round(r.right)}`);
      }
    }
    return found.slice(0, 10);";

/// The whole page on `screen` (as tall as the page) as `{name}.png`; fails when the page is
/// wider than the screen or any element reaches past its edges (something would be cut off or
/// need sideways scrolling).
async fn full_page(browser: &Client, cdp: &Cdp, dir: &Path, name: &str, screen: &Screen) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("create {}", dir.display()))?;
    cdp.screen(screen).await?;
    let size =
        browser.execute("const d = document.documentElement; return [d.scrollWidth, d.scrollHeight];", vec![]).await?;
    let (width, height) = (size[0].as_f64().unwrap_or(0.0), size[1].as_f64().unwrap_or(0.0));
    ensure!(width <= f64::from(screen.width), "{name}: the page is {width} px wide on a {} px screen", screen.width);
    let outside = browser.execute(PAST_THE_EDGES, vec![]).await?;
    let cut_off = |shot: &[u8]| std::fs::write(dir.join(format!("{name}-cut-off.png")), shot);
    if outside.as_array().is_some_and(|found| !found.is_empty()) {
        if let Ok(shot) = browser.screenshot().await {
            cut_off(&shot).ok();
        }
        bail!("{name}: elements reach past the {} px screen: {outside}", screen.width);
    }
    cdp.screen(&Screen { height: (height.ceil() as u32).max(screen.height), ..*screen }).await?;
    let shot = browser.screenshot().await;
    cdp.screen(screen).await?;
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, shot?).with_context(|| format!("write {}", path.display()))?;
    eprintln!("saved {} ({width}x{height})", path.display());
    Ok(())
}

/// Saves what the phone shows on screen (`{name}.png`, the 412x915 viewport) and the whole page
/// at the same width (`{name}-full.png`), and returns the page's size for the log.
async fn screenshots(browser: &Client, cdp: &Cdp, dir: &Path, name: &str) -> anyhow::Result<Value> {
    std::fs::create_dir_all(dir).with_context(|| format!("create {}", dir.display()))?;
    let size = browser
        .execute(
            "const d = document.documentElement; \
             return { viewport: [innerWidth, innerHeight], page: [d.scrollWidth, d.scrollHeight], dpr: devicePixelRatio };",
            vec![],
        )
        .await?;
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, browser.screenshot().await?).with_context(|| format!("write {}", path.display()))?;
    eprintln!("saved {} ({size})", path.display());

    // Whole page: a phone as tall as the page, then back to the phone's own height.
    let (_, phone_height) = PHONE;
    let height = size["page"][1].as_f64().unwrap_or(0.0).ceil() as u32;
    cdp.phone(height.max(phone_height)).await?;
    let shot = browser.screenshot().await;
    cdp.phone(phone_height).await?;
    let full = dir.join(format!("{name}-full.png"));
    std::fs::write(&full, shot?).with_context(|| format!("write {}", full.display()))?;
    eprintln!("saved {}", full.display());
    Ok(size)
}

async fn text(browser: &Client, id: &str) -> anyhow::Result<String> {
    let element = browser.find(Locator::Id(id)).await.with_context(|| format!("no #{id} on the page"))?;
    Ok(element.text().await?.trim().to_owned())
}

/// What the customer does: open the link, check what is owed, simulate paying, see it paid.
async fn pay_in_browser(browser: &Client, cdp: &Cdp, pay_url: &str, shots: &Path) -> anyhow::Result<()> {
    browser.goto(pay_url).await?;
    // The page runs under a Content-Security-Policy that lets in only its own style and script
    // by nonce: the stylesheet applied (the body's background) and the script ran (#paid-at, below).
    let background = browser.execute("return getComputedStyle(document.body).backgroundColor;", vec![]).await?;
    ensure!(background == json!("rgb(245, 246, 248)"), "the page's style was not applied: {background}");
    let total = text(browser, "total").await?;
    ensure!(total.contains("59.97"), "#total shows {total:?}");
    // The status is capitalized by CSS, and WebDriver reports the rendered text.
    let status = text(browser, "status").await?.to_lowercase();
    ensure!(status == "sent" || status == "viewed", "#status shows {status:?} before paying");
    let qr = browser.find(Locator::Css("#qr svg")).await.context("no <svg> QR code inside #qr")?;
    let (_, _, width, height) = qr.rectangle().await?;
    ensure!(width > 0.0 && height > 0.0, "the QR code is {width}x{height}");
    ensure!(qr.is_displayed().await?, "the QR code is not displayed");
    screenshots(browser, cdp, shots, "payment-page-before").await?;
    // On the phone's first screen (no scrolling): the wallet button and the sandbox's simulate.
    for id in ["wallet-link", "simulate"] {
        let (_, y, _, height) = browser.find(Locator::Id(id)).await?.rectangle().await?;
        ensure!(y + height <= f64::from(PHONE.1), "#{id} ends at {} px, below the first screen", y + height);
    }

    browser.find(Locator::Id("simulate")).await.context("no Simulate payment button")?.click().await?;
    // POST /pay/{pi}/simulate answers 303 back to the page, which now says it is paid.
    let wait = || browser.wait().at_most(Duration::from_secs(15)).every(Duration::from_millis(100));
    let paid = wait().for_element(Locator::Css("#status.paid")).await.context("the page never showed status paid")?;
    ensure!(paid.text().await?.trim().eq_ignore_ascii_case("paid"));
    let outcome = wait().for_element(Locator::Id("outcome")).await.context("no #outcome after paying")?;
    let outcome = outcome.text().await?;
    ensure!(outcome.contains("Paid in full"), "#outcome says {outcome:?}");
    // The script showed the time in the phone's own zone instead of the UTC fallback.
    let paid_at = text(browser, "paid-at").await?;
    ensure!(!paid_at.contains("UTC") && !paid_at.is_empty(), "#paid-at shows {paid_at:?}");
    ensure!(browser.find_all(Locator::Id("simulate")).await?.is_empty(), "a paid page offers no Simulate payment");
    ensure!(browser.find_all(Locator::Css("#qr svg")).await?.is_empty(), "a paid page shows no QR code");
    let url = browser.current_url().await?;
    ensure!(url.as_str() == pay_url, "after paying the browser is at {url}, not back on the page");
    screenshots(browser, cdp, shots, "payment-page-paid").await?;
    Ok(())
}

/// Where a browser test keeps things: chromedriver's log, Chromium's profile, the screenshots.
struct Places<'a> {
    dir: &'a Path,
    profile: &'a Path,
    shots: &'a Path,
}

/// Starts chromedriver and a phone-sized Chromium, runs `steps`, then ends the session (which
/// quits Chromium) and stops chromedriver. When `steps` fails, the screen as it was is saved as
/// `{name}-failure.png` and the test panics with the error.
async fn in_browser(
    (chromium, chromedriver): (&str, &str),
    http: &reqwest::Client,
    places: &Places<'_>,
    name: &str,
    steps: impl AsyncFnOnce(&Client, &Cdp) -> anyhow::Result<()>,
) {
    let driver_port = free_port();
    let mut driver = start_chromedriver(chromedriver, driver_port, places.dir.join("chromedriver.log"), http).await;
    let browser = match open_browser(chromium, driver_port, places.profile).await {
        Ok(browser) => browser,
        Err(e) => panic!("{e:?}"),
    };
    let outcome = match Cdp::new(http, driver_port, &browser).await {
        Ok(cdp) => steps(&browser, &cdp).await,
        Err(e) => Err(e),
    };
    let failure = places.shots.join(format!("{name}-failure.png"));
    if outcome.is_err()
        && let Ok(png) = browser.screenshot().await
        && std::fs::create_dir_all(places.shots).is_ok()
        && std::fs::write(&failure, png).is_ok()
    {
        eprintln!("saved {}", failure.display());
    }
    // Ends the session, which quits Chromium; the guard then stops chromedriver.
    let closed = browser.close().await;
    if let Err(e) = outcome {
        panic!("{e:?}");
    }
    closed.expect("close the WebDriver session");
    driver.stop();
}

async fn api(http: &reqwest::Client, key: &str, method: reqwest::Method, url: &str, body: Option<Value>) -> Value {
    let mut request = http.request(method.clone(), url).bearer_auth(key);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = response.status();
    let text = response.text().await.unwrap();
    assert!(status.is_success(), "{method} {url}: {status} {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {url}: {e}: {text}"))
}

#[tokio::test]
async fn a_customer_pays_a_sent_invoice_on_the_hosted_page_on_a_phone() {
    let Some((chromium, chromedriver)) = browser_or_skip() else { return };
    let started = Instant::now();
    // Declared first, dropped last: after the processes using them are gone.
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser");
    let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(30)).build().unwrap();

    let port = free_port();
    let mut serve = Serve::start(dir.path(), port, &[]);
    let key = serve.sandbox_key();
    let base = serve.base.clone();
    let client = api(
        &http,
        &key,
        reqwest::Method::POST,
        &format!("{base}/v1/clients"),
        Some(json!({ "firstName": "Marie", "lastName": "Joseph", "email": "marie@example.com" })),
    )
    .await;
    let invoice = api(
        &http,
        &key,
        reqwest::Method::POST,
        &format!("{base}/v1/invoices"),
        Some(json!({
            "clientId": client["id"],
            "dueDate": "2030-01-31",
            "sendImmediately": true,
            "lineItems": [{ "description": "Loan fee", "quantity": 3, "unitPrice": 19.99 }],
        })),
    )
    .await;
    assert_eq!(invoice["total"], "59.97", "{invoice}");
    let invoice_id = invoice["id"].as_str().expect("an invoice id").to_owned();
    let pay_url = invoice["paymentLink"]["url"].as_str().expect("a payment link").to_owned();
    assert!(pay_url.starts_with(&format!("{base}/pay/pi_")), "{pay_url}");

    let places = Places { dir: dir.path(), profile: profile.path(), shots: &shots };
    in_browser((chromium, chromedriver), &http, &places, "payment-page", async |browser, cdp| {
        pay_in_browser(browser, cdp, &pay_url, &shots).await
    })
    .await;

    let paid = api(&http, &key, reqwest::Method::GET, &format!("{base}/v1/invoices/{invoice_id}"), None).await;
    assert_eq!(paid["status"], "paid", "{paid}");
    assert!(paid["paidAt"].as_str().is_some_and(|t| !t.is_empty()), "paidAt is set: {paid}");

    serve.terminate();
    eprintln!("browser test took {:.1} s", started.elapsed().as_secs_f64());
    if let Err(e) = bail_if_leftover_chromium(profile.path()) {
        panic!("{e:?}");
    }
}

/// Chromium must not outlive the test: no process may still use this test's profile directory.
fn bail_if_leftover_chromium(profile: &Path) -> anyhow::Result<()> {
    let needle = format!("--user-data-dir={}", profile.display());
    for entry in std::fs::read_dir("/proc")?.flatten() {
        // A zombie's cmdline is empty: it holds nothing but its pid until it is reaped.
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else { continue };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(&needle) {
            bail!("Chromium is still running after the test: pid {:?}: {cmdline}", entry.file_name());
        }
    }
    Ok(())
}

/// The console's pages a signed-in admin opens, by screenshot name.
fn console_pages(ids: &ConsoleIds<'_>) -> Vec<(&'static str, String)> {
    let ConsoleIds { invoice, payout, disbursement, client, webhook } = ids;
    vec![
        ("dashboard", "/console".to_owned()),
        ("approvals", "/console/approvals".to_owned()),
        ("invoices", "/console/invoices".to_owned()),
        ("invoice-new", "/console/invoices/new".to_owned()),
        ("invoice", format!("/console/invoices/{invoice}")),
        ("payouts", "/console/payouts".to_owned()),
        ("payout-new", "/console/payouts/new".to_owned()),
        ("payout", format!("/console/payouts/{payout}")),
        ("disbursements", "/console/disbursements".to_owned()),
        ("disbursement-new", "/console/disbursements/new".to_owned()),
        ("disbursement", format!("/console/disbursements/{disbursement}")),
        ("clients", "/console/clients".to_owned()),
        ("client", format!("/console/clients/{client}")),
        ("client-edit", format!("/console/clients/{client}/edit")),
        ("messages", "/console/messages".to_owned()),
        ("events", "/console/events".to_owned()),
        ("keys", "/console/keys".to_owned()),
        ("users", "/console/users".to_owned()),
        ("audit", "/console/audit".to_owned()),
        ("settings", "/console/settings".to_owned()),
        ("webhooks", "/console/webhooks".to_owned()),
        ("webhook", format!("/console/webhooks/{webhook}")),
    ]
}

/// The records whose pages the console test opens.
struct ConsoleIds<'a> {
    invoice: &'a str,
    payout: &'a str,
    disbursement: &'a str,
    client: &'a str,
    webhook: &'a str,
}

/// Signs in through the form, then opens every page on a phone and on a desktop, checking the
/// style applied under the console's content policy and that nothing needs sideways scrolling.
async fn read_the_console(
    browser: &Client,
    cdp: &Cdp,
    base: &str,
    (email, password): (&str, &str),
    pages: &[(&'static str, String)],
    shots: &Path,
) -> anyhow::Result<()> {
    browser.goto(&format!("{base}/console")).await?;
    let url = browser.current_url().await?;
    ensure!(url.path() == "/console/sign-in", "without a session /console went to {url}");
    full_page(browser, cdp, shots, "console-sign-in-412", &PHONE_SCREEN).await?;
    sign_in(browser, base, email, password).await?;
    // The CLI chose the password: the first page is the one where the admin chooses their own.
    ensure!(browser.current_url().await?.path() == "/console/password", "no password to choose first");
    full_page(browser, cdp, shots, "console-password-412", &PHONE_SCREEN).await?;
    let mine = "Mango tree by the well";
    browser.find(Locator::Id("new-password")).await?.send_keys(mine).await?;
    browser.find(Locator::Id("repeat-password")).await?.send_keys(mine).await?;
    browser.find(Locator::Css("button.primary")).await?.click().await?;
    let chosen = Instant::now();
    while browser.current_url().await?.path() != "/console" {
        ensure!(chosen.elapsed() < Duration::from_secs(15), "choosing a password did not lead to the dashboard");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let background = browser.execute("return getComputedStyle(document.body).backgroundColor;", vec![]).await?;
    ensure!(background == json!("rgb(245, 247, 250)"), "the console's stylesheet was not applied: {background}");
    for (screen, width) in [(&PHONE_SCREEN, 412), (&DESKTOP, 1280)] {
        for (name, path) in pages {
            browser.goto(&format!("{base}{path}")).await?;
            let heading =
                browser.find(Locator::Css("main h1")).await.with_context(|| format!("no heading on {path}"))?;
            ensure!(!heading.text().await?.trim().is_empty(), "{path} has an empty heading");
            ensure!(browser.current_url().await?.path() == path.as_str(), "{path} redirected");
            full_page(browser, cdp, shots, &format!("console-{name}-{width}"), screen).await?;
        }
    }
    phones::every_page_in_french_and_creole_at_360(browser, cdp, base, pages, shots).await?;
    sign_out(browser).await
}

/// Waits up to 15 s, polling every 100 ms.
fn waiting(browser: &Client) -> fantoccini::wait::Wait<'_> {
    browser.wait().at_most(Duration::from_secs(15)).every(Duration::from_millis(100))
}

/// Signs in through the console's form and waits for the sandbox banner.
async fn sign_in(browser: &Client, base: &str, email: &str, password: &str) -> anyhow::Result<()> {
    browser.goto(&format!("{base}/console/sign-in")).await?;
    browser.find(Locator::Id("email")).await?.send_keys(email).await?;
    browser.find(Locator::Id("password")).await?.send_keys(password).await?;
    browser.find(Locator::Css("button.primary")).await?.click().await?;
    waiting(browser)
        .for_element(Locator::Css(".sandbox-banner"))
        .await
        .context("no sandbox banner after signing in")?;
    Ok(())
}

async fn sign_out(browser: &Client) -> anyhow::Result<()> {
    browser.find(Locator::Css("form[action='/console/sign-out'] button")).await?.click().await?;
    waiting(browser).for_element(Locator::Id("password")).await.context("signing out did not lead back to the form")?;
    Ok(())
}

/// A console user made with `lajan users create` on `serve`'s database; returns the password
/// it printed (one the user replaces with their own at first sign-in).
fn cli_user(dir: &Path, email: &str, role: &str, name: &str) -> String {
    let created = Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(["users", "create", "--email", email, "--role", role, "--name", name])
        .env("LAJAN_DATABASE_URL", format!("sqlite://{}", dir.join("serve.db").display()))
        .env_remove("LAJAN_CONFIG")
        .output()
        .expect("run lajan users create");
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    String::from_utf8(created.stdout).unwrap().trim().to_owned()
}

/// A console user made with `lajan users create --password-stdin`: the password they chose
/// themselves, which they keep.
fn cli_user_with_password(dir: &Path, email: &str, role: &str, name: &str) -> String {
    use std::io::Write;
    let password = format!("{role} walks past the mango tree");
    let mut child = Command::new(env!("CARGO_BIN_EXE_lajan"))
        .args(["users", "create", "--email", email, "--role", role, "--name", name, "--password-stdin"])
        .env("LAJAN_DATABASE_URL", format!("sqlite://{}", dir.join("serve.db").display()))
        .env_remove("LAJAN_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run lajan users create");
    child.stdin.take().expect("stdin").write_all(password.as_bytes()).expect("write the password");
    let created = child.wait_with_output().expect("lajan users create");
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    password
}

#[tokio::test]
async fn an_admin_created_with_the_cli_signs_in_and_reads_every_console_page() {
    let Some((chromium, chromedriver)) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser");
    let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(30)).build().unwrap();
    let port = free_port();
    let mut serve = Serve::start(dir.path(), port, &[]);
    let key = serve.sandbox_key();
    let base = serve.base.clone();

    let password = cli_user(dir.path(), "amara@example.ht", "admin", "Amara Joseph");

    let post = async |path: &str, body: Value| {
        api(&http, &key, reqwest::Method::POST, &format!("{base}{path}"), Some(body)).await
    };
    let client =
        post("/v1/clients", json!({ "firstName": "Marie", "lastName": "Joseph", "email": "marie@example.com" })).await;
    let invoice = post(
        "/v1/invoices",
        json!({ "clientId": client["id"], "dueDate": "2030-01-31", "sendImmediately": true,
        "lineItems": [{ "description": "Loan fee", "quantity": 3, "unitPrice": 19.99 }] }),
    )
    .await;
    let wallet = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";
    let payout = post(
        "/v1/payouts",
        json!({ "walletAccountId": wallet, "assetAmount": 40.05, "assetCode": "USDC", "memo": "Loan 2231" }),
    )
    .await;
    let payout_id = payout["id"].as_str().unwrap().to_owned();
    post(&format!("/v1/payouts/{payout_id}/approve"), json!({})).await;
    let items: Vec<Value> = (1..=3)
        .map(|i| json!({ "walletAccountId": wallet, "assetAmount": 15, "externalId": format!("june-{i}") }))
        .collect();
    let batch =
        post("/v1/disbursements", json!({ "name": "June stipends", "assetCode": "USDC", "items": items })).await;
    let batch_id = batch["id"].as_str().unwrap().to_owned();
    post(&format!("/v1/disbursements/{batch_id}/submit"), json!({})).await;
    let endpoint = json!({ "url": "https://hooks.example.ht/lajan", "events": ["*"], "description": "Kès santral" });
    let webhook = post("/v1/webhook-endpoints", endpoint).await;
    let pages = console_pages(&ConsoleIds {
        invoice: invoice["id"].as_str().unwrap(),
        payout: &payout_id,
        disbursement: &batch_id,
        client: client["id"].as_str().unwrap(),
        webhook: webhook["id"].as_str().unwrap(),
    });

    let places = Places { dir: dir.path(), profile: profile.path(), shots: &shots };
    in_browser((chromium, chromedriver), &http, &places, "console", async |browser, cdp| {
        read_the_console(browser, cdp, &base, ("amara@example.ht", &password), &pages, &shots).await
    })
    .await;
    serve.terminate();
    if let Err(e) = bail_if_leftover_chromium(profile.path()) {
        panic!("{e:?}");
    }
}
