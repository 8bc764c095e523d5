//! A receiver with only a phone registers in a real browser, on `lajan serve` with its workers:
//! the organization pays a client who has no wallet, the invitation arrives (read from the
//! sandbox's messages), and on a phone, in Haitian Creole, the receiver confirms the code,
//! answers the date of birth, picks an address and sees the payout arrive. Screenshots of each
//! step land in `target/browser/` (docs/receivers.md shows them).

use super::*;

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

/// Waits up to `secs` seconds for `css`, polling every 200 ms.
async fn appears(browser: &Client, css: &str, secs: u64) -> anyhow::Result<fantoccini::elements::Element> {
    let wait = browser.wait().at_most(Duration::from_secs(secs)).every(Duration::from_millis(200));
    wait.for_element(Locator::Css(css)).await.with_context(|| format!("{css} never appeared"))
}

/// The newest sandbox message to `client` whose text contains `marker`, waiting up to 30 s for
/// the worker to send it.
async fn message(http: &reqwest::Client, base: &str, key: &str, client: &str, marker: &str) -> anyhow::Result<String> {
    let started = Instant::now();
    loop {
        let all = api(http, key, reqwest::Method::GET, &format!("{base}/v1/sandbox/messages?limit=20"), None).await;
        let found = all["data"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|m| m["clientId"] == json!(client) && m["text"].as_str().is_some_and(|t| t.contains(marker)));
        if let Some(text) = found.and_then(|m| m["text"].as_str()) {
            return Ok(text.to_owned());
        }
        ensure!(started.elapsed() < Duration::from_secs(30), "no message with {marker:?} to {client}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

async fn submit(browser: &Client, field: &str, text: &str) -> anyhow::Result<()> {
    let input = browser.find(Locator::Id(field)).await.with_context(|| format!("no #{field}"))?;
    input.send_keys(text).await?;
    browser.find(Locator::Css("#step form button.primary")).await?.click().await?;
    Ok(())
}

#[tokio::test]
async fn a_receiver_registers_on_a_phone_in_creole_and_is_paid() {
    let Some((chromium, chromedriver)) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser");
    let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(30)).build().unwrap();
    let mut serve = Serve::start(dir.path(), free_port(), &[]);
    let key = serve.sandbox_key();
    let base = serve.base.clone();
    let post = reqwest::Method::POST;
    let wallets = json!({ "recommendedWallets": [
        { "name": "Beans", "url": "https://www.beansapp.com", "assets": ["USDC"] },
        { "name": "Vibrant", "url": "https://vibrantapp.com", "assets": ["USDC", "XLM"] },
    ] });
    api(&http, &key, reqwest::Method::PUT, &format!("{base}/v1/settings"), Some(wallets)).await;
    let ana = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000001",
                      "verification": { "type": "date_of_birth", "value": "1990-05-07" } });
    let ana = api(&http, &key, post.clone(), &format!("{base}/v1/clients"), Some(ana)).await;
    let ana = ana["id"].as_str().unwrap().to_owned();
    let payout = json!({ "clientId": ana, "assetAmount": 25, "assetCode": "USDC" });
    let payout = api(&http, &key, post.clone(), &format!("{base}/v1/payouts"), Some(payout)).await;
    let payout = payout["id"].as_str().unwrap().to_owned();
    api(&http, &key, post, &format!("{base}/v1/payouts/{payout}/approve"), Some(json!({}))).await;

    let places = Places { dir: dir.path(), profile: profile.path(), shots: &shots };
    in_browser((chromium, chromedriver), &http, &places, "registration", async |browser, cdp| {
        let invitation = message(&http, &base, &key, &ana, "/r/").await?;
        let link = invitation.split_whitespace().find(|w| w.contains("/r/")).context("no link")?.to_owned();
        cdp.screen(&PHONE_SCREEN).await?;
        browser.goto(&link).await?;
        appears(browser, "html[lang='ht'] [data-step='confirm_contact']", 15).await?;
        // The recommended wallets are suggested from the first step, to install while the code comes.
        appears(browser, "#suggested-wallets #wallets", 15).await?;
        full_page(browser, cdp, &shots, "ht-register-1-phone-412", &PHONE_SCREEN).await?;
        browser.find(Locator::Id("send-code")).await?.click().await?;
        appears(browser, "#code", 15).await?;
        let sms = message(&http, &base, &key, &ana, "kòd").await?;
        let code = sms.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).context("no code")?.to_owned();
        full_page(browser, cdp, &shots, "ht-register-2-code-412", &PHONE_SCREEN).await?;
        submit(browser, "code", &code).await?;
        appears(browser, "[data-step='verify'] #answer", 15).await?;
        submit(browser, "answer", "1990-05-08").await?;
        let refused = appears(browser, "#refusal", 15).await?.text().await?;
        ensure!(refused.contains("pa koresponn"), "a wrong answer, said in Creole: {refused}");
        full_page(browser, cdp, &shots, "ht-register-3-question-412", &PHONE_SCREEN).await?;
        submit(browser, "answer", "1990-05-07").await?;
        appears(browser, "[data-step='wallet'] #address", 15).await?;
        appears(browser, "#suggested-wallets #wallets", 15).await?;
        full_page(browser, cdp, &shots, "ht-register-4-wallet-412", &PHONE_SCREEN).await?;
        submit(browser, "address", WALLET).await?;
        appears(browser, "#registered", 15).await?;
        // The payout goes out in the sandbox's next ledger; the page says so on the next visit.
        let started = Instant::now();
        loop {
            browser.refresh().await?;
            let statuses = appears(browser, "#payouts", 15).await?.text().await?;
            if statuses.contains("Li rive") {
                break;
            }
            ensure!(started.elapsed() < Duration::from_secs(30), "the payout never arrived: {statuses}");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        full_page(browser, cdp, &shots, "ht-register-5-paid-412", &PHONE_SCREEN).await
    })
    .await;
    let paid = api(&http, &key, reqwest::Method::GET, &format!("{base}/v1/payouts/{payout}"), None).await;
    assert_eq!(paid["execStatus"], "sent", "{paid}");
    serve.terminate();
    if let Err(e) = bail_if_leftover_chromium(profile.path()) {
        panic!("{e:?}");
    }
}
