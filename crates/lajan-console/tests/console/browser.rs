//! A browser for the console tests: it keeps cookies as a browser would (without the https
//! rule, since the tests speak plain HTTP), sends the Origin of the page it is on, follows no
//! redirect by itself, and reads the CSRF value from the forms it is shown.

use lajan_domain::user::Role;
use lajan_testkit::TestApp;
use reqwest::Response;
use std::collections::BTreeMap;
use std::sync::Mutex;

pub(crate) const PASSWORD: &str = "correct horse battery";

/// Creates a console user of `org_id` (the app's organization when `None`) with [`PASSWORD`].
pub(crate) async fn user(app: &TestApp, org_id: Option<&str>, email: &str, role: Role) -> lajan_domain::user::User {
    let org_id = org_id.unwrap_or(&app.org.id);
    let (user, hash) =
        lajan_services::users::new_user((org_id, None), email, role, None, PASSWORD, false).expect("a valid user");
    app.store().create_user(&user, &hash, &lajan_testkit::operator()).await.expect("create the user");
    user
}

pub(crate) struct Browser {
    http: reqwest::Client,
    base: String,
    /// What `Origin` says on the forms it posts (the console's own, unless a test says not).
    pub origin: Option<String>,
    cookies: Mutex<BTreeMap<String, String>>,
}

impl Browser {
    pub(crate) fn new(app: &TestApp) -> Browser {
        Browser::speaking(app, "en-US,en;q=0.9")
    }

    /// A browser whose `Accept-Language` is `languages`.
    pub(crate) fn speaking(app: &TestApp, languages: &str) -> Browser {
        Browser::with_headers(app, &[("accept-language", languages)])
    }

    /// A browser at `address` behind the proxy the test server runs behind (its requests say
    /// `X-Forwarded-For: address`; believed only where loopback is a trusted proxy).
    pub(crate) fn at(app: &TestApp, address: &str) -> Browser {
        Browser::with_headers(app, &[("accept-language", "en"), ("x-forwarded-for", address)])
    }

    fn with_headers(app: &TestApp, pairs: &[(&'static str, &str)]) -> Browser {
        let mut headers = reqwest::header::HeaderMap::new();
        for (name, value) in pairs {
            headers.insert(*name, reqwest::header::HeaderValue::from_str(value).expect("header"));
        }
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .default_headers(headers)
            .build()
            .expect("client");
        let base = app.url("");
        Browser { http, origin: Some(base.clone()), base, cookies: Mutex::default() }
    }

    pub(crate) fn cookie(&self, name: &str) -> Option<String> {
        self.cookies.lock().unwrap().get(name).cloned()
    }

    pub(crate) fn set_cookie(&self, name: &str, value: &str) {
        self.cookies.lock().unwrap().insert(name.into(), value.into());
    }

    fn cookie_header(&self) -> String {
        self.cookies.lock().unwrap().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    fn keep_cookies(&self, r: &Response) {
        let mut jar = self.cookies.lock().unwrap();
        for value in r.headers().get_all("set-cookie") {
            let text = value.to_str().expect("ascii cookie");
            let (pair, attributes) = text.split_once(';').unwrap_or((text, ""));
            let (name, value) = pair.split_once('=').expect("name=value");
            if attributes.to_ascii_lowercase().contains("max-age=0") {
                jar.remove(name);
            } else {
                jar.insert(name.to_owned(), value.to_owned());
            }
        }
    }

    pub(crate) async fn get(&self, path: &str) -> Response {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .send()
            .await
            .expect("send");
        self.keep_cookies(&r);
        r
    }

    /// Posts a form as the console's own page would (with [`Browser::origin`]).
    pub(crate) async fn post(&self, path: &str, fields: &[(&str, &str)]) -> Response {
        let mut request =
            self.http.post(format!("{}{path}", self.base)).header("cookie", self.cookie_header()).form(fields);
        if let Some(origin) = &self.origin {
            request = request.header("origin", origin);
        }
        let r = request.send().await.expect("send");
        self.keep_cookies(&r);
        r
    }

    /// Posts a form with a file (`multipart/form-data`, the file as the field `file`), as the
    /// console's own page would.
    pub(crate) async fn upload(&self, path: &str, fields: &[(&str, &str)], file: &[u8]) -> Response {
        let boundary = "lajan-test-boundary-5f1d2c";
        let mut body = Vec::new();
        for (name, value) in fields {
            let part = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n");
            body.extend_from_slice(part.as_bytes());
        }
        let head = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"items.csv\"\r\nContent-Type: text/csv\r\n\r\n"
        );
        body.extend_from_slice(head.as_bytes());
        body.extend_from_slice(file);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let mut request = self
            .http
            .post(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .header("content-type", format!("multipart/form-data; boundary={boundary}"))
            .body(body);
        if let Some(origin) = &self.origin {
            request = request.header("origin", origin);
        }
        let r = request.send().await.expect("send");
        self.keep_cookies(&r);
        r
    }

    /// Opens the sign-in form and posts `email` and `password` with its CSRF value.
    pub(crate) async fn sign_in(&self, email: &str, password: &str) -> Response {
        let form = self.get("/console/sign-in").await.text().await.expect("the form");
        let csrf = csrf_of(&form);
        self.post("/console/sign-in", &[("email", email), ("password", password), ("csrf", &csrf)]).await
    }

    /// Signs in and expects to land on the dashboard.
    pub(crate) async fn signed_in(app: &TestApp, email: &str) -> Browser {
        let browser = Browser::new(app);
        let r = browser.sign_in(email, PASSWORD).await;
        assert_eq!((r.status().as_u16(), location(&r)), (303, "/console".to_owned()), "signed in as {email}");
        browser
    }

    /// The CSRF value the dashboard's forms carry.
    pub(crate) async fn csrf(&self) -> String {
        csrf_of(&self.get("/console").await.text().await.expect("the dashboard"))
    }
}

/// The value of the first hidden `csrf` field in a page.
pub(crate) fn csrf_of(html: &str) -> String {
    let marker = "name=\"csrf\" value=\"";
    let start = html.find(marker).unwrap_or_else(|| panic!("no csrf field in {html}")) + marker.len();
    html[start..].split('"').next().expect("a value").to_owned()
}

pub(crate) fn location(r: &Response) -> String {
    r.headers().get("location").map(|v| v.to_str().expect("ascii").to_owned()).unwrap_or_default()
}
