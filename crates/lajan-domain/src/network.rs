//! Which network addresses a webhook may be sent to: public unicast ones only. Everything
//! else (our own machine, private networks, link-local, multicast, unspecified, reserved and
//! documentation ranges, and IPv6 forms that embed one of those IPv4 addresses) is refused, so a
//! webhook URL cannot be used to reach into the network Lajan runs in. And the client address
//! a request came from, and the authority a URL names.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// A URL's host with its port when it names one (`pay.example:8443`): what a `Host` header
/// carries, and the domain a Stellar service is known by. `None` without a host.
pub fn authority(url: &url::Url) -> Option<String> {
    match (url.host_str(), url.port()) {
        (Some(host), Some(port)) => Some(format!("{host}:{port}")),
        (Some(host), None) => Some(host.to_owned()),
        (None, _) => None,
    }
}

/// A domain as SEP-1 and SEP-10 name one: a host (as the URL parser writes it: lower case)
/// with a port at most, no longer than `max_bytes`.
pub fn parse_domain(raw: &str, max_bytes: usize) -> Result<String, String> {
    let rule = || {
        format!(
            "must be a domain (a host, with a port at most) of at most {max_bytes} characters, like pay.example.org"
        )
    };
    if raw.is_empty() || raw.len() > max_bytes {
        return Err(rule());
    }
    let url = url::Url::parse(&format!("https://{raw}/")).map_err(|_| rule())?;
    // A path, credentials, a query or an upper-case letter would change what is named.
    if authority(&url).as_deref() != Some(raw) {
        return Err(rule());
    }
    Ok(raw.to_owned())
}

/// The address of the client a request came from: the peer, or behind trusted proxies the
/// address they forwarded. Every per-address limit counts by it, and the request log names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientAddress(pub IpAddr);

/// Why `ip` is not a public unicast address, or `None` when it is.
pub fn non_public(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => non_public_v4(v4),
        IpAddr::V6(v6) => non_public_v6(v6),
    }
}

fn non_public_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    match (a, b, c) {
        (0, ..) => Some("an unspecified (0.0.0.0/8) address"),
        (127, ..) => Some("a loopback address"),
        (10, ..) | (172, 16..=31, _) | (192, 168, _) => Some("a private address"),
        (100, 64..=127, _) => Some("a shared (carrier-grade NAT) address"),
        (169, 254, _) => Some("a link-local address"),
        (192, 0, 0) => Some("an IETF protocol address"),
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => Some("a documentation address"),
        (198, 18..=19, _) => Some("a benchmarking address"),
        (224..=239, ..) => Some("a multicast address"),
        (240..=255, ..) => Some("a reserved or broadcast address"),
        _ => None,
    }
}

fn non_public_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let segments = ip.segments();
    let embedded_v4 = |at: usize| Ipv4Addr::from(((segments[at] as u32) << 16) | segments[at + 1] as u32);
    if ip.is_unspecified() {
        return Some("an unspecified address");
    }
    if ip.is_loopback() {
        return Some("a loopback address");
    }
    match segments {
        // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): the IPv4 address decides.
        [0, 0, 0, 0, 0, 0xffff, ..] | [0, 0, 0, 0, 0, 0, ..] => non_public_v4(embedded_v4(6)),
        // NAT64 (64:ff9b::/96 well-known, 64:ff9b:1::/48 local): a gateway would dial the IPv4.
        [0x64, 0xff9b, 0, 0, 0, 0, ..] => non_public_v4(embedded_v4(6)),
        [0x64, 0xff9b, 1, ..] => Some("a local-use NAT64 address"),
        // 6to4 (2002:a.b.c.d::/48) carries an IPv4 address in bits 16 to 48.
        [0x2002, ..] => non_public_v4(embedded_v4(1)),
        [0x2001, 0, ..] => Some("a Teredo address"),
        [0x2001, 0xdb8, ..] => Some("a documentation address"),
        [0x100, 0, 0, 0, ..] => Some("a discard address"),
        [first, ..] if first & 0xfe00 == 0xfc00 => Some("a private (unique local) address"),
        [first, ..] if first & 0xffc0 == 0xfe80 => Some("a link-local address"),
        [first, ..] if first & 0xffc0 == 0xfec0 => Some("a site-local address"),
        [first, ..] if first & 0xff00 == 0xff00 => Some("a multicast address"),
        _ => None,
    }
}

/// Whether `host` names this machine by name (`localhost`, `*.localhost`), which resolvers may
/// answer from their own rules.
pub fn is_localhost(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_authority_keeps_the_port_it_names() {
        let of = |raw: &str| authority(&url::Url::parse(raw).unwrap());
        assert_eq!(of("https://pay.example.ht/r/x").as_deref(), Some("pay.example.ht"));
        assert_eq!(of("http://127.0.0.1:8080").as_deref(), Some("127.0.0.1:8080"));
        assert_eq!(of("https://pay.example.ht:443").as_deref(), Some("pay.example.ht"), "a default port is not named");
        assert_eq!(of("data:text/plain,x"), None);
    }

    fn check(ip: &str) -> Option<&'static str> {
        non_public(ip.parse().unwrap())
    }

    #[test]
    fn public_addresses_pass() {
        for ip in ["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "2a00:1450:4001::1"] {
            assert_eq!(check(ip), None, "{ip}");
        }
    }

    #[test]
    fn every_non_public_range_is_refused() {
        for (ip, why) in [
            ("127.0.0.1", "loopback"),
            ("0.0.0.0", "unspecified"),
            ("10.1.2.3", "private"),
            ("172.16.0.1", "private"),
            ("172.31.255.255", "private"),
            ("192.168.1.1", "private"),
            ("169.254.169.254", "link-local"),
            ("100.64.0.1", "shared"),
            ("224.0.0.1", "multicast"),
            ("255.255.255.255", "broadcast"),
            ("192.0.2.1", "documentation"),
            ("198.18.0.1", "benchmarking"),
            ("::1", "loopback"),
            ("::", "unspecified"),
            ("fd00::1", "unique local"),
            ("fe80::1", "link-local"),
            ("ff02::1", "multicast"),
            ("::ffff:127.0.0.1", "loopback"),
            ("::ffff:10.0.0.1", "private"),
            ("::ffff:169.254.169.254", "link-local"),
            ("64:ff9b::10.0.0.1", "private"),
            ("64:ff9b::127.0.0.1", "loopback"),
            ("64:ff9b:1::1", "NAT64"),
            ("2002:c0a8:0101::1", "private"),
            ("2001:db8::1", "documentation"),
            ("2001::1", "Teredo"),
        ] {
            let said = check(ip).unwrap_or_else(|| panic!("{ip} passed"));
            assert!(said.contains(why), "{ip}: {said}");
        }
        assert_eq!(check("::ffff:93.184.216.34"), None, "a mapped public address is public");
        assert_eq!(check("64:ff9b::93.184.216.34"), None);
    }

    #[test]
    fn localhost_by_name() {
        for host in ["localhost", "LOCALHOST.", "api.localhost"] {
            assert!(is_localhost(host), "{host}");
        }
        assert!(!is_localhost("localhost.example.com"));
    }
}
