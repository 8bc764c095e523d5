//! What every console handler reaches: the use cases, and what the deployment's public URL says
//! about cookies and origins.

use lajan_services::Services;
use std::sync::Arc;

#[derive(Clone)]
pub(crate) struct Console {
    pub services: Arc<Services>,
    /// Cookies are `Secure` when the console is served over https.
    pub secure_cookies: bool,
    /// `scheme://host[:port]` of the public URL: a form posted from there is same-origin even
    /// when a proxy gave the request another Host.
    pub public_origin: Option<String>,
}

impl Console {
    pub(crate) fn new(services: Arc<Services>) -> Self {
        let public = url::Url::parse(&services.config.public_url).ok();
        let secure_cookies = public.as_ref().is_some_and(|u| u.scheme() == "https");
        let public_origin = public.map(|u| u.origin().ascii_serialization()).filter(|o| o != "null");
        Console { services, secure_cookies, public_origin }
    }
}
