//! The console's admin pages and role checks: admins list, create (the secret shown once) and
//! revoke keys of their organization and environment, invite and disable its users, and read the
//! audit page (who changed users and keys, every sign-in); every other role is refused (403) and
//! changes nothing.

use crate::browser::{Browser, csrf_of, location, user};
use lajan_domain::Environment;
use lajan_domain::org::Tier;
use lajan_domain::user::Role;
use lajan_testkit::TestApp;

/// The secret a key-created page shows.
fn secret_on(page: &str) -> String {
    let marker = "class=\"secret wrap\">";
    let start = page.find(marker).unwrap_or_else(|| panic!("no secret on {page}")) + marker.len();
    page[start..].split('<').next().unwrap().to_owned()
}

async fn key_id(app: &TestApp, name: &str) -> String {
    let keys = app.store().list_api_keys(Some(&app.org.id)).await.unwrap();
    keys.into_iter().find(|k| k.name == name).map(|k| k.id).unwrap_or_else(|| panic!("no key {name}"))
}

api_test!(an_admin_lists_creates_and_revokes_the_organizations_keys, |app| {
    user(app, None, "admin@example.ht", Role::Admin).await;
    let browser = Browser::signed_in(app, "admin@example.ht").await;
    let page = browser.get("/console/keys").await.text().await.unwrap();
    assert!(page.contains(&app.key[..12]) && !page.contains(&app.key), "hints, never secrets");
    let csrf = browser.csrf().await;

    let fields =
        [("csrf", csrf.as_str()), ("name", "Payroll export"), ("scope", "clients:read"), ("scope", "payouts:read")];
    let r = browser.post("/console/keys", &fields).await;
    assert_eq!(r.status(), 201);
    let secret = secret_on(&r.text().await.unwrap());
    assert!(secret.starts_with("sk_test_") && secret.len() == 40, "{secret}");
    assert_eq!(app.get_with(&secret, "/v1/clients").await.status(), 200, "the new key works");
    assert_eq!(app.get_with(&secret, "/v1/invoices").await.status(), 403, "within its scopes only");
    let page = browser.get("/console/keys").await.text().await.unwrap();
    assert!(page.contains("Payroll export") && page.contains(&secret[..12]) && !page.contains(&secret));

    let before = app.store().list_api_keys(Some(&app.org.id)).await.unwrap().len();
    for (fields, says) in [
        (vec![("csrf", csrf.as_str()), ("name", "No scopes")], "Scopes: a key needs at least one scope"),
        (vec![("csrf", csrf.as_str()), ("name", " "), ("scope", "*")], "Name: must not be empty"),
        (vec![("csrf", csrf.as_str()), ("name", "Odd"), ("scope", "clients:delete")], "unknown scope"),
    ] {
        let r = browser.post("/console/keys", &fields).await;
        assert_eq!(r.status(), 400);
        assert!(r.text().await.unwrap().contains(says), "{says}");
    }
    assert_eq!(app.store().list_api_keys(Some(&app.org.id)).await.unwrap().len(), before, "nothing created");

    let id = key_id(app, "Payroll export").await;
    let r = browser.post(&format!("/console/keys/{id}/revoke"), &[("csrf", &csrf)]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/keys".into()));
    assert_eq!(app.get_with(&secret, "/v1/clients").await.status(), 401, "revoked");
    assert!(browser.get("/console/keys").await.text().await.unwrap().contains("revoked"));
    let rows = audit_rows(&browser.get("/console/audit").await.text().await.unwrap());
    let payroll = format!("Payroll export (Sandbox, {}…)", &secret[..12]);
    assert_eq!(
        rows[..2],
        [["API key revoked", &payroll, "admin@example.ht"], ["API key created", &payroll, "admin@example.ht"]],
        "the console's changes, by the signed-in admin"
    );

    // Another organization's key and the other environment's: not found, and untouched.
    let other = app.org("Other MFI", Tier::Standard).await;
    let (other_secret, other_id) = app.key_with_id(Some(&other.id), Environment::Test, &["*"]).await;
    let (live_secret, live_id) = app.key_with_id(None, Environment::Live, &["*"]).await;
    for id in [other_id, live_id] {
        assert_eq!(browser.post(&format!("/console/keys/{id}/revoke"), &[("csrf", &csrf)]).await.status(), 404);
    }
    assert_eq!(app.get_with(&other_secret, "/v1/clients").await.status(), 200);
    assert_eq!(app.get_with(&live_secret, "/v1/clients").await.status(), 200);

    browser.post("/console/environment", &[("environment", "live"), ("csrf", &csrf)]).await;
    let r = browser.post("/console/keys", &[("csrf", csrf.as_str()), ("name", "Live reader"), ("scope", "*")]).await;
    assert!(secret_on(&r.text().await.unwrap()).starts_with("sk_live_"), "keys of the environment shown");
});

api_test!(each_role_is_refused_what_it_may_not_do, |app| {
    for role in [Role::Viewer, Role::Maker, Role::Approver] {
        let email = format!("{role}@example.ht");
        user(app, None, &email, role).await;
        let browser = Browser::signed_in(app, &email).await;
        let dashboard = browser.get("/console").await.text().await.unwrap();
        assert!(!dashboard.contains("/console/keys"), "{role}: no admin link");
        assert_eq!(browser.get("/console/invoices").await.status(), 200, "{role} reads");
        let r = browser.get("/console/keys").await;
        assert_eq!(r.status(), 403, "{role}");
        assert!(r.text().await.unwrap().contains(&format!("Your role ({role}) does not allow this.")));
        let csrf = browser.csrf().await;
        let r = browser.post("/console/keys", &[("csrf", csrf.as_str()), ("name", "Sneaky"), ("scope", "*")]).await;
        assert_eq!(r.status(), 403, "{role} creates no key");
        let id = key_id(app, "test").await;
        let r = browser.post(&format!("/console/keys/{id}/revoke"), &[("csrf", &csrf)]).await;
        assert_eq!(r.status(), 403, "{role} revokes no key");
        assert_eq!(browser.get("/console/users").await.status(), 403, "{role}");
        assert_eq!(browser.get("/console/audit").await.status(), 403, "{role} reads no audit page");
        let invite = [("csrf", csrf.as_str()), ("email", "sneaky@example.ht"), ("role", "admin")];
        assert_eq!(browser.post("/console/users", &invite).await.status(), 403, "{role} invites no one");
    }
    assert!(app.store().user_by_email("sneaky@example.ht").await.unwrap().is_none());
    let keys = app.store().list_api_keys(Some(&app.org.id)).await.unwrap();
    assert!(keys.iter().all(|k| k.name != "Sneaky" && k.revoked_at.is_none()), "nothing changed");
    assert_eq!(app.get("/v1/clients").await.status(), 200);
});

api_test!(an_admin_invites_and_disables_users_and_reads_the_sign_ins, |app| {
    let admin = user(app, None, "admin@example.ht", Role::Admin).await;
    let other = app.org("Other MFI", Tier::Standard).await;
    let stranger = user(app, Some(&other.id), "stranger@example.ht", Role::Viewer).await;
    Browser::new(app).sign_in("admin@example.ht", "not the password").await;
    let browser = Browser::signed_in(app, "admin@example.ht").await;
    let csrf = browser.csrf().await;

    let r = browser
        .post(
            "/console/users",
            &[("csrf", csrf.as_str()), ("email", "Clerk@Example.ht"), ("name", "Clerk"), ("role", "maker")],
        )
        .await;
    assert_eq!(r.status(), 201);
    let password = secret_on(&r.text().await.unwrap());
    assert_eq!(password.len(), 20);
    let clerk = Browser::new(app);
    assert_eq!(location(&clerk.sign_in("clerk@example.ht", &password).await), "/console", "the invited user signs in");
    // Someone else chose that password: the clerk sees nothing before choosing their own.
    let r = clerk.get("/console/users").await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/password".into()));
    let form = clerk.get("/console/password").await.text().await.unwrap();
    assert!(form.contains("Choose your password"), "{form}");
    let clerk_csrf = csrf_of(&form);
    let mine = "Mango tree by the well";
    for (chosen, repeat, says) in [
        ("aaaaaaaaaaaaaa", "aaaaaaaaaaaaaa", "must not be one character repeated"),
        ("password1234", "password1234", "is too easy to guess"),
        ("Summer2026!!", "Summer2026!!", "is too easy to guess"),
        ("Welcome@2026", "Welcome@2026", "is too easy to guess"),
        ("              ", "              ", "must not be empty"),
        (password.as_str(), password.as_str(), "must differ from the password you were given"),
        (mine, "Mango tree by the wall", "must be the same password again"),
    ] {
        let fields = [("csrf", clerk_csrf.as_str()), ("password", chosen), ("repeat", repeat)];
        let r = clerk.post("/console/password", &fields).await;
        assert_eq!(r.status(), 400, "{chosen:?}");
        assert!(r.text().await.unwrap().contains(says), "{chosen:?}: {says}");
    }
    let fields = [("csrf", clerk_csrf.as_str()), ("password", mine), ("repeat", mine)];
    let r = clerk.post("/console/password", &fields).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console".into()));
    assert_eq!(clerk.get("/console/users").await.status(), 403, "as a maker, and nothing in between");
    assert_eq!(Browser::new(app).sign_in("clerk@example.ht", &password).await.status(), 401, "the given one is gone");
    assert_eq!(location(&Browser::new(app).sign_in("clerk@example.ht", mine).await), "/console");

    for (fields, says) in [
        (vec![("email", "clerk@example.ht"), ("role", "viewer")], "Email: is in use already"),
        (vec![("email", "stranger@example.ht"), ("role", "viewer")], "Email: is in use already"),
        (vec![("email", "nobody"), ("role", "viewer")], "Email: must be an email address"),
        (vec![("email", "new@example.ht"), ("role", "owner")], "Role: unknown value"),
    ] {
        let mut fields = fields;
        fields.push(("csrf", &csrf));
        let r = browser.post("/console/users", &fields).await;
        assert_eq!(r.status(), 400);
        assert!(r.text().await.unwrap().contains(says), "{says}");
    }

    let page = browser.get("/console/users").await.text().await.unwrap();
    assert!(page.contains("clerk@example.ht") && !page.contains("stranger@example.ht"), "this organization's only");

    let clerk_id = app.store().user_by_email("clerk@example.ht").await.unwrap().unwrap().0.id;
    let r = browser.post(&format!("/console/users/{clerk_id}/disable"), &[("csrf", &csrf)]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/users".into()));
    assert_eq!(location(&clerk.get("/console").await), "/console/sign-in", "their session ended");
    assert_eq!(clerk.sign_in("clerk@example.ht", &password).await.status(), 401, "and they cannot sign in");

    let r = browser.post(&format!("/console/users/{}/disable", stranger.id), &[("csrf", &csrf)]).await;
    assert_eq!(r.status(), 404, "another organization's user");
    let r = browser.post(&format!("/console/users/{}/disable", admin.id), &[("csrf", &csrf)]).await;
    assert_eq!(r.status(), 400, "not yourself");
    assert_eq!(browser.get("/console").await.status(), 200);
    assert!(app.store().user_by_email("stranger@example.ht").await.unwrap().unwrap().0.disabled_at.is_none());

    let audit = browser.get("/console/audit").await.text().await.unwrap();
    for outcome in ["succeeded", "failed"] {
        assert!(audit.contains(&format!("s-{outcome}\">{outcome}")), "{outcome} sign-ins are listed");
    }
    let rows = audit_rows(&audit);
    assert_eq!(
        rows,
        [
            ["user disabled", "clerk@example.ht (maker)", "admin@example.ht"],
            ["user created", "clerk@example.ht (maker)", "admin@example.ht"],
            ["user created", "admin@example.ht (admin)", "Lajan (cli)"],
            ["API key created", &format!("test (Sandbox, {}…)", &app.key[..12]), "Lajan (cli)"],
        ],
        "newest first; refused invitations and disablings left no line; nothing of the other organization"
    );
    assert_eq!(clerk.get("/console/audit").await.status(), 303, "signed out");
});

/// The audit page's users-and-keys lines: change, of what, by whom.
fn audit_rows(page: &str) -> Vec<[String; 3]> {
    let table = page.split("<h2>Users and API keys</h2>").nth(1).unwrap().split("</tbody>").next().unwrap();
    let cell = |row: &str, n: usize| {
        let cell = row.split("<td").nth(n).unwrap().split_once('>').unwrap().1;
        let text = cell.split("</td>").next().unwrap();
        let text = text.split(" <small").next().unwrap();
        text.replace("<code>", "").replace("</code>", "").replace("&#x2f;", "/")
    };
    table.split("<tr>").skip(2).map(|row| [cell(row, 1), cell(row, 2), cell(row, 3)]).collect()
}

api_test!(an_admin_changes_the_settings_with_each_bad_field_named, |app| {
    let admin = user(app, None, "admin@example.ht", Role::Admin).await;
    let browser = Browser::signed_in(app, "admin@example.ht").await;
    let page = browser.get("/console/settings").await.text().await.unwrap();
    assert!(page.contains("name=\"payout_approval_required\" checked"), "today's settings: {page}");
    let csrf = browser.csrf().await;
    let bad = [
        ("csrf", csrf.as_str()),
        ("default_currency", "HTG"),
        ("default_tax_rate", "10"),
        ("timezone", "Mars/Olympus"),
    ];
    let r = browser.post("/console/settings", &bad).await;
    assert_eq!(r.status(), 400);
    assert!(r.text().await.unwrap().contains("unknown timezone"));
    // How receivers are invited, every bad field at once.
    let receivers = [
        ("csrf", csrf.as_str()),
        ("default_currency", "HTG"),
        ("default_tax_rate", "10"),
        ("timezone", "UTC"),
        ("invitation_resend_days", "forty"),
        ("registration_window_days", "91"),
        ("recommended_wallets", "Beans | ftp://beans | USDC"),
    ];
    let r = browser.post("/console/settings", &receivers).await;
    assert_eq!(r.status(), 400);
    let page = r.text().await.unwrap();
    assert!(page.contains("Days before an invitation is sent again: must be a whole number from 1 to 30"), "{page}");
    assert!(page.contains("Days a payout waits: must be a whole number from 1 to 90"), "{page}");
    let wallets = "Beans | https://www.beansapp.com | USDC\n Vibrant | https://vibrantapp.com | USDC, XLM \n";
    let receivers = [
        ("csrf", csrf.as_str()),
        ("default_currency", "HTG"),
        ("default_tax_rate", "10"),
        ("timezone", "UTC"),
        ("default_client_language", "fr"),
        ("invitation_resend_days", "5"),
        ("invitation_resends", "0"),
        ("registration_window_days", "30"),
        ("whatsapp_invitations", "on"),
        ("recommended_wallets", wallets),
        ("allow_partial_payments", "on"),
    ];
    let r = browser.post("/console/settings", &receivers).await;
    assert_eq!(r.status(), 303, "{}", r.text().await.unwrap());
    let saved: serde_json::Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(
        (&saved["defaultClientLanguage"], &saved["invitationResendDays"], &saved["invitationResends"]),
        (&serde_json::json!("fr"), &serde_json::json!(5), &serde_json::json!(0)),
        "{saved}"
    );
    assert_eq!(
        (&saved["registrationWindowDays"], &saved["whatsappInvitations"]),
        (&serde_json::json!(30), &serde_json::json!(true))
    );
    assert_eq!(saved["recommendedWallets"][1]["assets"], serde_json::json!(["USDC", "XLM"]), "{saved}");
    assert_eq!(saved["allowPartialPayments"], true);
    let page = browser.get("/console/settings").await.text().await.unwrap();
    assert!(page.contains("name=\"allow_partial_payments\" checked"), "{page}");
    assert!(page.contains("Vibrant | https:&#x2f;&#x2f;vibrantapp.com"), "shown as saved: {page}");
    let before: serde_json::Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(before["timezone"], "UTC", "nothing changed: {before}");

    let good = [
        ("csrf", csrf.as_str()),
        ("default_currency", "USD"),
        ("default_tax_rate", "10"),
        ("timezone", "America/Port-au-Prince"),
        ("require_distinct_approver", "on"),
    ];
    // An approver who is there before the request can be its second person.
    let approver = user(app, None, "approver@example.ht", Role::Approver).await;
    let r = browser.post("/console/settings", &good).await;
    // The sandbox key may approve too: unticking approval waits for a second person.
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/settings?requested=1".to_owned()));
    let after: serde_json::Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(
        (&after["defaultCurrency"], &after["payoutApprovalRequired"], &after["requireDistinctApprover"]),
        (&serde_json::json!("USD"), &serde_json::json!(true), &serde_json::json!(true)),
        "the currency and the tightened rule apply, the unticked approval waits: {after}"
    );
    assert_eq!(after["allowPartialPayments"], false, "unticked: the payment page asks for all that is due");
    let change = after["pendingChange"]["id"].as_str().unwrap().to_owned();
    let page = browser.get("/console/settings?requested=1").await.text().await.unwrap();
    assert!(page.contains("waits for a second person with approval rights"), "{page}");
    assert!(page.contains("Payouts wait for an approver: on → off"), "{page}");
    let (confirm, cancel) =
        (format!("/console/settings/changes/{change}/confirm"), format!("/console/settings/changes/{change}/cancel"));
    assert!(!page.contains(&confirm) && page.contains(&cancel), "the asker may cancel, not confirm: {page}");
    let own = browser.post(&confirm, &[("csrf", csrf.as_str()), ("back", "settings")]).await;
    assert_eq!(own.status(), 403, "the asker is not a second person");

    // An approver made after the request is not a second person (four eyes means two people).
    user(app, None, "late@example.ht", Role::Approver).await;
    let late = Browser::signed_in(app, "late@example.ht").await;
    let late_csrf = late.csrf().await;
    let r = late.post(&confirm, &[("csrf", late_csrf.as_str()), ("back", "approvals")]).await;
    assert_eq!(r.status(), 403, "made after the request");

    // An approver who was there confirms it from their approvals page.
    let second = Browser::signed_in(app, "approver@example.ht").await;
    let waiting = second.get("/console/approvals").await.text().await.unwrap();
    assert!(waiting.contains(&confirm), "{waiting}");
    let their_csrf = second.csrf().await;
    let r = second.post(&confirm, &[("csrf", their_csrf.as_str()), ("back", "approvals")]).await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/approvals".to_owned()));
    let after: serde_json::Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(
        (&after["payoutApprovalRequired"], &after["pendingChange"]),
        (&serde_json::json!(false), &serde_json::Value::Null)
    );
    let events: serde_json::Value = app.get("/v1/events?type=settings.updated").await.json().await.unwrap();
    let (confirmed, first) = (&events["data"][0], &events["data"][1]);
    assert_eq!(confirmed["actor"], serde_json::json!({ "type": "user", "id": approver.id }));
    assert_eq!(confirmed["data"]["object"]["requestedBy"], serde_json::json!({ "type": "user", "id": admin.id }));
    assert_eq!(confirmed["data"]["object"]["secondPerson"], "confirmed");
    assert_eq!(first["actor"], serde_json::json!({ "type": "user", "id": admin.id }));
    assert_eq!(first["data"]["object"]["updatedByKey"], serde_json::Value::Null, "no key made it");
    assert!(browser.get("/console/settings?saved=1").await.text().await.unwrap().contains("Saved."));
    let audit = browser.get("/console/audit").await.text().await.unwrap();
    let settings = audit.split("<h2>Settings</h2>").nth(1).unwrap().split("</tbody>").next().unwrap();
    assert!(
        settings.contains("Payouts wait for an approver: on → off") && settings.contains("confirmed"),
        "{settings}"
    );
    assert!(
        settings.contains("decided by approver@example.ht")
            && settings.contains("Default currency of invoices: HTG → USD"),
        "{settings}"
    );

    for role in [Role::Maker, Role::Approver] {
        let email = format!("{role}-2@example.ht");
        user(app, None, &email, role).await;
        let other = Browser::signed_in(app, &email).await;
        assert_eq!(other.get("/console/settings").await.status(), 403, "{role}");
        let csrf = other.csrf().await;
        let fields =
            [("csrf", csrf.as_str()), ("default_currency", "HTG"), ("default_tax_rate", "0"), ("timezone", "UTC")];
        assert_eq!(other.post("/console/settings", &fields).await.status(), 403, "{role}");
    }
    let forged = [("csrf", "forged"), ("default_currency", "HTG"), ("default_tax_rate", "0"), ("timezone", "UTC")];
    assert_eq!(browser.post("/console/settings", &forged).await.status(), 403);
    let still: serde_json::Value = app.get("/v1/settings").await.json().await.unwrap();
    assert_eq!(still["defaultCurrency"], "USD");
});

api_test!(an_admin_renames_the_organization_and_payers_read_the_new_name, |app| {
    user(app, None, "admin@example.ht", Role::Admin).await;
    let browser = Browser::signed_in(app, "admin@example.ht").await;
    let page = browser.get("/console/settings").await.text().await.unwrap();
    assert!(
        page.contains(&format!(
            "name=\"organization_name\" type=\"text\" maxlength=\"200\" required value=\"{}\"",
            app.org.name
        )),
        "{page}"
    );
    let client = app.reachable_client().await;
    let invoice = app.invoice(client["id"].as_str().unwrap(), serde_json::json!({ "sendImmediately": true })).await;
    let pay = invoice["paymentLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let csrf = browser.csrf().await;

    let refused = browser
        .post("/console/settings/organization", &[("csrf", csrf.as_str()), ("organization_name", "Split\u{202E}name")])
        .await;
    assert_eq!(refused.status(), 400);
    let page = refused.text().await.unwrap();
    assert!(page.contains("Name: must not contain control or invisible characters"), "the rule, worded: {page}");
    assert_eq!(app.store().get_organization(&app.org.id).await.unwrap().unwrap().name, app.org.name, "nothing changed");

    let r = browser
        .post("/console/settings/organization", &[("csrf", csrf.as_str()), ("organization_name", "  Fonkoze Haïti ")])
        .await;
    assert_eq!((r.status().as_u16(), location(&r)), (303, "/console/settings?saved=1".to_owned()));
    let paying = app.http.get(app.url(&format!("/pay/{pay}"))).send().await.unwrap().text().await.unwrap();
    assert!(paying.contains("Fonkoze Haïti") && !paying.contains(&format!(">{}<", app.org.name)), "{paying}");
    let audit = browser.get("/console/audit").await.text().await.unwrap();
    assert!(
        audit.contains("organization renamed") && audit.contains(&format!("{} → Fonkoze Haïti", app.org.name)),
        "{audit}"
    );

    user(app, None, "maker@example.ht", Role::Maker).await;
    let maker = Browser::signed_in(app, "maker@example.ht").await;
    let their_csrf = maker.csrf().await;
    let r = maker
        .post("/console/settings/organization", &[("csrf", their_csrf.as_str()), ("organization_name", "Mine")])
        .await;
    assert_eq!(r.status(), 403);
    let forged =
        browser.post("/console/settings/organization", &[("csrf", "forged"), ("organization_name", "Forged")]).await;
    assert_eq!(forged.status(), 403);
    assert_eq!(app.store().get_organization(&app.org.id).await.unwrap().unwrap().name, "Fonkoze Haïti");
});
