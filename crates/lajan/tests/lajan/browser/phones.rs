//! The console on the smallest phones in use (360 CSS pixels wide) in French and Creole: every
//! page opened, nothing reaching past the screen's edges (tables read as a card per row, every
//! menu entry in view), each photographed.

use super::*;

/// A small Android phone (Galaxy A class): 360x800 CSS pixels at a density of 3.
const SMALL_PHONE: Screen = Screen { width: 360, height: 800, dpr: 3.0, mobile: true };

/// Chooses `lang` with the header's language switch and waits for the page to speak it.
async fn speak(browser: &Client, lang: &str) -> anyhow::Result<()> {
    let select = browser.find(Locator::Css("form.language select")).await.context("no language switch")?;
    select.select_by_value(lang).await?;
    browser.find(Locator::Css("form.language button")).await?.click().await?;
    let html = format!("html[lang='{lang}']");
    waiting(browser).for_element(Locator::Css(&html)).await.with_context(|| format!("the page never spoke {lang}"))?;
    Ok(())
}

/// Opens each of `pages` at 360 px in French, then in Creole, as `console-{name}-360-{lang}.png`,
/// checking each one's menu: every entry shown, none out of view.
pub(super) async fn every_page_in_french_and_creole_at_360(
    browser: &Client,
    cdp: &Cdp,
    base: &str,
    pages: &[(&'static str, String)],
    shots: &Path,
) -> anyhow::Result<()> {
    cdp.screen(&SMALL_PHONE).await?;
    for lang in ["fr", "ht"] {
        speak(browser, lang).await?;
        for (name, path) in pages {
            browser.goto(&format!("{base}{path}")).await?;
            ensure!(browser.current_url().await?.path() == path.as_str(), "{path} redirected");
            let entries = browser.find_all(Locator::Css(".main-nav a")).await?;
            ensure!(entries.len() >= 10, "{path}: the admin's menu has {} entries", entries.len());
            for entry in entries {
                ensure!(entry.is_displayed().await?, "{path}: a menu entry is hidden: {}", entry.text().await?);
            }
            full_page(browser, cdp, shots, &format!("console-{name}-360-{lang}"), &SMALL_PHONE).await?;
        }
    }
    speak(browser, "en").await
}
