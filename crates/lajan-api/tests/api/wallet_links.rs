//! "Open in <wallet>": an invitation's page offers each recommended wallet with a deep link a
//! registration link as the Stellar Disbursement Platform hands wallets one (asset, domain,
//! organization), signed by the `stellar.toml`'s `SIGNING_KEY`, until the receiver is registered.

use crate::registration::{code_in, invited, last_text, submit};
use lajan_testkit::{TestApp, WALLET, expect_error};
use serde_json::json;

async fn html(app: &TestApp, token: &str) -> String {
    app.http.get(app.url(&format!("/r/{token}"))).send().await.unwrap().text().await.unwrap()
}

/// The `href`s of the page's "Open in" buttons, as a browser reads them.
fn open_in_links(html: &str) -> Vec<String> {
    let Some(card) = html.split("id=\"open-in-wallet\"").nth(1) else { return Vec::new() };
    let card = card.split("</section>").next().unwrap();
    card.split("href=\"")
        .skip(1)
        .map(|rest| {
            let raw = rest.split('"').next().unwrap();
            raw.replace("&#x2f;", "/").replace("&#x27;", "'").replace("&quot;", "\"").replace("&amp;", "&")
        })
        .collect()
}

/// Whether the hex `signature` is `account`'s ed25519 signature of `message`.
fn signed_by(account: &str, message: &str, signature: &str) -> bool {
    let key = stellar_strkey::ed25519::PublicKey::from_string(account).unwrap();
    let bytes: Vec<u8> =
        (0..signature.len()).step_by(2).map(|i| u8::from_str_radix(&signature[i..i + 2], 16).unwrap()).collect();
    let signature = ed25519_dalek::Signature::from_slice(&bytes).unwrap();
    ed25519_dalek::VerifyingKey::from_bytes(&key.0).unwrap().verify_strict(message.as_bytes(), &signature).is_ok()
}

api_test!(an_invitation_opens_in_a_recommended_wallet_with_a_link_signed_by_the_signing_key, |app| {
    let wallets = json!({ "recommendedWallets": [
        { "name": "Beans", "url": "https://www.beansapp.com", "assets": ["USDC"], "deepLink": "https://www.beansapp.com/sdp" },
        { "name": "Decaf", "url": "https://decaf.so", "assets": ["EURC"], "deepLink": "decaf://sdp" },
        { "name": "Vibrant", "url": "https://vibrantapp.com", "assets": [] },
        { "name": "Any", "url": "https://any.example", "assets": [], "deepLink": "anywallet://register?from=lajan" },
    ]});
    let saved: serde_json::Value = app.put("/v1/settings", &wallets).await.json().await.unwrap();
    assert_eq!(saved["recommendedWallets"][0]["deepLink"], "https://www.beansapp.com/sdp", "{saved}");
    assert_eq!(saved["recommendedWallets"][2]["deepLink"], serde_json::Value::Null);
    let ana = json!({ "firstName": "Ana", "lastName": "Pyè", "phoneNumber": "+50937000011" });
    let (id, token) = invited(app, ana).await;

    let page = html(app, &token).await;
    assert!(page.contains("Louvri nan Beans") && page.contains("Louvri nan Any"), "in Creole: {page}");
    assert!(!page.contains("Louvri nan Decaf") && !page.contains("Louvri nan Vibrant"), "{page}");
    let links = open_in_links(&page);
    assert_eq!(links.len(), 2, "{links:?}");

    let toml_text = app.http.get(app.url("/.well-known/stellar.toml")).send().await.unwrap().text().await.unwrap();
    let toml: toml::Value = toml::from_str(&toml_text).unwrap();
    let signing_key = toml["SIGNING_KEY"].as_str().unwrap();
    let usdc = toml["CURRENCIES"].as_array().unwrap().iter().find(|c| c["code"].as_str() == Some("USDC")).unwrap();
    let asset = format!("USDC-{}", usdc["issuer"].as_str().unwrap());
    for (link, base) in links.iter().zip(["https://www.beansapp.com/sdp?", "anywallet://register?from=lajan&"]) {
        let (unsigned, signature) = link.rsplit_once("&signature=").unwrap();
        assert_eq!(unsigned, format!("{base}asset={asset}&domain=pay.lajan.test&name=Acme"));
        assert!(signed_by(signing_key, unsigned, signature), "signed by the SIGNING_KEY: {link}");
        assert!(!signed_by(signing_key, &unsigned.replace("Acme", "Evil"), signature), "and only that link");
    }

    // Registered, the page offers no wallet any more.
    submit(app, &token, "code", &[]).await;
    let code = code_in(&last_text(app, &id).await);
    assert_eq!(submit(app, &token, "confirm", &[("code", &code)]).await.status(), 200);
    assert!(!open_in_links(&html(app, &token).await).is_empty(), "still offered at the address step");
    assert_eq!(submit(app, &token, "wallet", &[("address", WALLET)]).await.status(), 200);
    assert!(open_in_links(&html(app, &token).await).is_empty());

    // A deep link that would open a page or a script is refused, naming the field.
    let bad = json!({ "recommendedWallets": [
        { "name": "Evil", "url": "https://evil.example", "deepLink": "javascript:alert(1)" }] });
    let body = expect_error(app.put("/v1/settings", &bad).await, 400, "validation_error").await;
    assert_eq!(body["details"][0]["field"], "recommendedWallets[0].deepLink", "{body}");
});
