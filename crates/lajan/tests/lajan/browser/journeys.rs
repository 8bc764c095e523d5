//! The console's two month's-work journeys in a real browser, on `lajan serve` with its workers:
//! a maker uploads a spreadsheet with a bad row, fixes it and submits; an approver approves; the
//! batch pays out while its page follows it; the report downloads. And an invoice from the form
//! to paid: drafted, sent, paid on its payment page in the sandbox. Then the pages of both, in
//! French (the maker's choice) and Creole (the approver's), on a phone and on a desktop.

use super::*;

const WALLET: &str = "GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H";

/// Waits up to `secs` seconds for `css`, polling every 200 ms.
async fn appears(browser: &Client, css: &str, secs: u64) -> anyhow::Result<fantoccini::elements::Element> {
    let wait = browser.wait().at_most(Duration::from_secs(secs)).every(Duration::from_millis(200));
    wait.for_element(Locator::Css(css)).await.with_context(|| format!("{css} never appeared"))
}

async fn field(browser: &Client, id: &str, text: &str) -> anyhow::Result<()> {
    browser.find(Locator::Id(id)).await.with_context(|| format!("no #{id}"))?.send_keys(text).await?;
    Ok(())
}

/// What the page's `a[download]` link serves to this browser's session. (The page cannot fetch
/// it itself: the console's content policy allows no script connections.)
async fn download(browser: &Client, http: &reqwest::Client) -> anyhow::Result<String> {
    let link = browser.find(Locator::Css("a[download]")).await.context("no download link")?;
    let href = link.prop("href").await?.context("the link has no href")?;
    let session = browser.get_named_cookie("lajan_session").await.context("no session cookie")?;
    let response = http.get(&href).header("cookie", format!("lajan_session={}", session.value())).send().await?;
    ensure!(response.status() == 200, "the download answered {}", response.status());
    let kind = response.headers().get("content-disposition").and_then(|v| v.to_str().ok()).unwrap_or_default();
    ensure!(kind.starts_with("attachment"), "not a download: {kind:?}");
    Ok(response.text().await?)
}

/// Presses the confirmation page's button, after a picture of the page at phone width.
async fn confirm(browser: &Client, cdp: &Cdp, shots: &Path, shot: &str) -> anyhow::Result<()> {
    let button = appears(browser, "form.confirm button", 15).await.context("no confirmation page")?;
    full_page(browser, cdp, shots, shot, &PHONE_SCREEN).await?;
    button.click().await?;
    Ok(())
}

async fn disbursement_journey(
    (browser, cdp, http): (&Client, &Cdp, &reqwest::Client),
    base: &str,
    (maker, approver): ((&str, &str), (&str, &str)),
    files: &Path,
    shots: &Path,
) -> anyhow::Result<()> {
    let bad = files.join("june-bad.csv");
    let good = files.join("june.csv");
    std::fs::write(&bad, format!("walletAccountId,assetAmount,externalId\n{WALLET},15,june-1\nGNOPE,15,june-2\n"))?;
    std::fs::write(&good, format!("walletAccountId,assetAmount,externalId\n{WALLET},15,june-1\n{WALLET},20,june-2\n"))?;

    sign_in(browser, base, maker.0, maker.1).await?;
    browser.goto(&format!("{base}/console/disbursements/new")).await?;
    field(browser, "batch-name", "June stipends").await?;
    field(browser, "batch-file", &bad.display().to_string()).await?;
    browser.find(Locator::Css("form[enctype='multipart/form-data'] button.primary")).await?.click().await?;
    let refused = appears(browser, "section[role='alert'] table", 15).await?;
    let refused = refused.text().await?;
    ensure!(refused.contains("walletAccountId") && refused.contains('2'), "the bad row is shown: {refused}");
    full_page(browser, cdp, shots, "journey-csv-bad-row-412", &PHONE_SCREEN).await?;
    // The name was kept; the corrected file goes up.
    field(browser, "batch-file", &good.display().to_string()).await?;
    browser.find(Locator::Css("form[enctype='multipart/form-data'] button.primary")).await?.click().await?;
    let submit = appears(browser, "form[action$='/submit'] button", 15).await?;
    let batch_page = browser.current_url().await?;
    ensure!(batch_page.path().starts_with("/console/disbursements/dsb_"), "after the upload: {batch_page}");
    submit.click().await?;
    // Submitting asks first (a page, no script), then says it was done.
    confirm(browser, cdp, shots, "journey-confirm-submit-412").await?;
    appears(browser, "h1 .s-pending_approval", 15).await?;
    appears(browser, "p.notice[role='status']", 15).await.context("no message after submitting")?;
    sign_out(browser).await?;

    sign_in(browser, base, approver.0, approver.1).await?;
    browser.goto(&format!("{base}/console/approvals")).await?;
    let id = batch_page.path().rsplit('/').next().unwrap_or_default().to_owned();
    full_page(browser, cdp, shots, "journey-approvals-412", &PHONE_SCREEN).await?;
    let approve = format!("form[action='/console/disbursements/{id}/approve'] button");
    browser.find(Locator::Css(&approve)).await.context("no Approve for the batch on the approvals page")?;
    // Decided from the batch's own page, which the approval returns to.
    browser.goto(batch_page.as_str()).await?;
    browser.find(Locator::Css(&approve)).await.context("no Approve on the batch's page")?.click().await?;
    confirm(browser, cdp, shots, "journey-confirm-approve-412").await?;
    // The page refreshes itself every 5 seconds while the payouts go out.
    appears(browser, "h1 .s-completed", 60).await.context("the batch never completed")?;
    full_page(browser, cdp, shots, "journey-batch-completed-412", &PHONE_SCREEN).await?;
    let report = download(browser, http).await?;
    ensure!(report.lines().count() == 3, "the report has a header and two items: {report}");
    ensure!(report.contains("june-1") && report.contains("sent"), "{report}");
    sign_out(browser).await
}

async fn invoice_journey(
    browser: &Client,
    cdp: &Cdp,
    base: &str,
    maker: (&str, &str),
    shots: &Path,
) -> anyhow::Result<()> {
    sign_in(browser, base, maker.0, maker.1).await?;
    browser.goto(&format!("{base}/console/invoices/new")).await?;
    browser.find(Locator::Id("invoice-client")).await?.select_by_label("Marie Joseph").await?;
    // A date input is typed in the browser's locale; its value is always ISO.
    browser.execute("document.getElementById('invoice-due').value = '2030-01-31';", vec![]).await?;
    let rows = browser.find_all(Locator::Css("table.lines tbody tr")).await?;
    let first = rows.first().context("no line rows")?;
    for (name, text) in [("description", "Loan fee"), ("quantity", "3"), ("unit_price", "19.99")] {
        first.find(Locator::Css(&format!("input[name='{name}']"))).await?.send_keys(text).await?;
    }
    browser.find(Locator::Css("button[name='add_line']")).await?.click().await?;
    // Under a loaded CI machine the form's round trip has taken over 15 s.
    appears(browser, "table.lines tbody tr:nth-child(4)", 30).await.context("Add a line gave no fourth row")?;
    browser.find(Locator::Css("form.invoice-form > button.primary")).await?.click().await?;
    let sent_button = appears(browser, "form[action$='/send'] button", 15).await?;
    let total = browser.find(Locator::Css("dl.facts")).await?.text().await?;
    ensure!(total.contains("59.97 HTG"), "the draft's total: {total}");
    sent_button.click().await?;
    appears(browser, "h1 .s-sent", 15).await?;
    let link = browser.find(Locator::Id("payment-link")).await?.attr("href").await?.context("no link")?;
    full_page(browser, cdp, shots, "journey-invoice-sent-1280", &DESKTOP).await?;
    browser.goto(&link).await?;
    browser.find(Locator::Id("simulate")).await.context("no Simulate payment")?.click().await?;
    appears(browser, "#status.paid", 15).await?;
    let invoice_page = format!("{base}/console/invoices/{}", total_invoice_id(browser, base).await?);
    browser.goto(&invoice_page).await?;
    appears(browser, "h1 .s-paid", 15).await.context("the console never showed the invoice paid")?;
    full_page(browser, cdp, shots, "journey-invoice-paid-412", &PHONE_SCREEN).await?;
    sign_out(browser).await
}

/// Chooses `lang` with the header's language switch, and waits for the page to speak it.
async fn choose_language(browser: &Client, lang: &str) -> anyhow::Result<()> {
    browser.find(Locator::Css("select[name='language']")).await?.select_by_value(lang).await?;
    browser.find(Locator::Css("form.language button")).await?.click().await?;
    appears(browser, &format!("html[lang='{lang}']"), 15).await.map(drop)
}

/// The newest item's page from a console list (`/console/invoices`, `/console/disbursements`).
async fn newest(browser: &Client, base: &str, list: &str) -> anyhow::Result<String> {
    browser.goto(&format!("{base}{list}")).await?;
    let link = browser.find(Locator::Css(&format!("table a[href^='{list}/']"))).await?;
    link.attr("href").await?.with_context(|| format!("no item on {list}"))
}

/// The journeys' pages in French, chosen by the maker, and in Creole, chosen by the approver;
/// each on a phone and on a desktop (no page may need sideways scrolling), with the payment page
/// in the language its link names.
async fn languages_tour(
    browser: &Client,
    cdp: &Cdp,
    base: &str,
    (maker, approver): ((&str, &str), (&str, &str)),
    (files, shots): (&Path, &Path),
) -> anyhow::Result<()> {
    for ((email, password), lang) in [(maker, "fr"), (approver, "ht")] {
        sign_in(browser, base, email, password).await?;
        choose_language(browser, lang).await?;
        let invoice = newest(browser, base, "/console/invoices").await?;
        let batch = newest(browser, base, "/console/disbursements").await?;
        browser.goto(&format!("{base}{invoice}")).await?;
        let link = browser.find(Locator::Id("payment-link")).await?.attr("href").await?.context("no link")?;
        let mut pages = vec![
            ("dashboard", format!("{base}/console")),
            ("invoices", format!("{base}/console/invoices")),
            ("invoice", format!("{base}{invoice}")),
            ("disbursement", format!("{base}{batch}")),
            ("payouts", format!("{base}/console/payouts")),
            ("events", format!("{base}/console/events")),
            ("client-new", format!("{base}/console/clients/new")),
            ("pay", format!("{link}?lang={lang}")),
        ];
        pages.push(if lang == "fr" {
            ("invoice-form", format!("{base}/console/invoices/new"))
        } else {
            ("approvals", format!("{base}/console/approvals"))
        });
        for (name, url) in pages {
            browser.goto(&url).await?;
            appears(browser, &format!("html[lang='{lang}']"), 15).await.with_context(|| format!("{name} in {lang}"))?;
            if name == "pay" && lang == "ht" {
                // Browsers write no Creole dates: the page keeps its own words.
                let paid_at = browser.find(Locator::Id("paid-at")).await?.text().await?;
                ensure!(paid_at.ends_with(" UTC") && !paid_at.contains("AM"), "#paid-at in Creole: {paid_at:?}");
            }
            if name == "events" {
                let shown = browser.find(Locator::Css("main")).await?.text().await?;
                let zone = if lang == "fr" { "heure de Port-au-Prince" } else { "lè Port-au-Prince" };
                ensure!(
                    shown.contains(zone) && !shown.contains(" UTC"),
                    "events in {lang} at Port-au-Prince time: {shown}"
                );
            }
            for (width, screen) in [("412", &PHONE_SCREEN), ("1280", &DESKTOP)] {
                full_page(browser, cdp, shots, &format!("{lang}-{name}-{width}"), screen).await?;
            }
        }
        if lang == "ht" {
            // A payout waiting: approving it asks first, in Creole; going back decides nothing.
            browser.goto(&format!("{base}/console/approvals")).await?;
            browser
                .find(Locator::Css("form[action$='/approve'] button"))
                .await
                .context("nothing to approve")?
                .click()
                .await?;
            appears(browser, "form.confirm button", 15).await?;
            full_page(browser, cdp, shots, "ht-confirm-approve-412", &PHONE_SCREEN).await?;
            browser.find(Locator::Css("section.card a")).await?.click().await?;
            appears(browser, "form[action$='/approve'] button", 15).await.context("going back approved it")?;
        }
        if lang == "fr" {
            // A client made in French, and a payout form with three bad fields at once (an
            // amount that reads two ways in French among them).
            browser.goto(&format!("{base}/console/clients/new")).await?;
            full_page(browser, cdp, shots, "fr-client-new-412", &PHONE_SCREEN).await?;
            field(browser, "client-first-name", "Anne").await?;
            field(browser, "client-last-name", "Pierre").await?;
            browser.find(Locator::Css("form button.primary")).await?.click().await?;
            appears(browser, "p.notice[role='status']", 15).await.context("no message after saving the client")?;
            browser.goto(&format!("{base}/console/payouts/new")).await?;
            field(browser, "payout-wallet", "GNOPE").await?;
            field(browser, "payout-amount", "1.000").await?;
            field(browser, "payout-memo", &"é".repeat(15)).await?;
            browser.find(Locator::Css("form button.primary")).await?.click().await?;
            let refused = appears(browser, "div.error[role='alert']", 15).await?.text().await?;
            ensure!(
                refused.lines().count() == 3 && refused.contains("« 1.000 »"),
                "three bad fields at once: {refused}"
            );
            full_page(browser, cdp, shots, "fr-payout-errors-412", &PHONE_SCREEN).await?;
            // The spreadsheet's bad row, explained in French.
            browser.goto(&format!("{base}/console/disbursements/new")).await?;
            field(browser, "batch-name", "Bourses de juin").await?;
            field(browser, "batch-file", &files.join("june-bad.csv").display().to_string()).await?;
            browser.find(Locator::Css("form[enctype='multipart/form-data'] button.primary")).await?.click().await?;
            let refused = appears(browser, "section[role='alert'] table", 15).await?.text().await?;
            ensure!(
                refused.contains("doit être une adresse de compte Stellar"),
                "the row's error in French: {refused}"
            );
            full_page(browser, cdp, shots, "fr-csv-bad-row-412", &PHONE_SCREEN).await?;
        }
        sign_out(browser).await?;
    }
    Ok(())
}

/// The id of the newest invoice, from the console's list.
async fn total_invoice_id(browser: &Client, base: &str) -> anyhow::Result<String> {
    browser.goto(&format!("{base}/console/invoices")).await?;
    let link = browser.find(Locator::Css("a[href^='/console/invoices/inv_']")).await?;
    let href = link.attr("href").await?.context("no href")?;
    Ok(href.rsplit('/').next().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn a_maker_and_an_approver_do_the_months_work_in_the_browser() {
    let Some((chromium, chromedriver)) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/browser");
    let http = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(30)).build().unwrap();
    let mut serve = Serve::start(dir.path(), free_port(), &[]);
    let key = serve.sandbox_key();
    let base = serve.base.clone();
    let maker = cli_user_with_password(dir.path(), "jean@example.ht", "maker", "Jean Maker");
    let approver = cli_user_with_password(dir.path(), "rose@example.ht", "approver", "Rose Approver");
    let body = json!({ "firstName": "Marie", "lastName": "Joseph", "email": "marie@example.com" });
    api(&http, &key, reqwest::Method::POST, &format!("{base}/v1/clients"), Some(body)).await;
    // The organization's clock: the console shows times in it, named.
    let zone = json!({ "timezone": "America/Port-au-Prince" });
    api(&http, &key, reqwest::Method::PUT, &format!("{base}/v1/settings"), Some(zone)).await;
    // A payout left waiting for the approver's tour in Creole.
    let body = json!({ "walletAccountId": WALLET, "assetAmount": 7, "assetCode": "USDC" });
    api(&http, &key, reqwest::Method::POST, &format!("{base}/v1/payouts"), Some(body)).await;

    let places = Places { dir: dir.path(), profile: profile.path(), shots: &shots };
    let people = (("jean@example.ht", maker.as_str()), ("rose@example.ht", approver.as_str()));
    in_browser((chromium, chromedriver), &http, &places, "journeys", async |browser, cdp| {
        disbursement_journey((browser, cdp, &http), &base, people, dir.path(), &shots).await?;
        invoice_journey(browser, cdp, &base, people.0, &shots).await?;
        languages_tour(browser, cdp, &base, people, (dir.path(), &shots)).await
    })
    .await;
    serve.terminate();
    if let Err(e) = bail_if_leftover_chromium(profile.path()) {
        panic!("{e:?}");
    }
}
