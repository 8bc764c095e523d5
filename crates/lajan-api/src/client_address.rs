//! The address of the client a request came from. Behind the reverse proxy docs/operations.md
//! recommends every request's peer is the proxy, so per-address limits would lump every client
//! together: when the peer is one of `LAJAN_TRUSTED_PROXIES`, the client is the right-most
//! address in `X-Forwarded-For` (or RFC 7239 `Forwarded`) that is not itself a trusted proxy.
//! Headers from any other peer are never believed: a client could write anything there.

use axum::http::HeaderMap;
use ipnet::IpNet;
use std::net::{IpAddr, SocketAddr};

/// The client behind `peer` given the forwarding headers, trusting only `trusted` proxies.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let hops = forwarded_for(headers);
    let mut client = peer;
    // Right to left: each hop was added by the proxy after it. The first we cannot vouch for
    // (not a trusted proxy, or not an address at all) ends the walk.
    for hop in hops.iter().rev() {
        match hop {
            Some(ip) if is_trusted(ip) => client = *ip,
            Some(ip) => return *ip,
            None => return client,
        }
    }
    client
}

/// The addresses the proxies recorded, left (first) to right (last); `None` for an entry that
/// is not an address (`unknown`, an obfuscated name, garbage).
fn forwarded_for(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name: &str| headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>();
    let x_forwarded_for = values("x-forwarded-for");
    if !x_forwarded_for.is_empty() {
        return x_forwarded_for.iter().flat_map(|v| v.split(',')).map(|hop| parse_hop(hop.trim())).collect();
    }
    values("forwarded")
        .iter()
        .flat_map(|v| v.split(','))
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (name, value) = pair.trim().split_once('=')?;
                name.trim().eq_ignore_ascii_case("for").then(|| parse_hop(value.trim().trim_matches('"')))
            })
        })
        .collect()
}

/// `192.0.2.1`, `2001:db8::1`, `192.0.2.1:4711` or `[2001:db8::1]:4711`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|a| a.ip()))
        .or_else(|| hop.strip_prefix('[')?.strip_suffix(']')?.parse().ok())
}

/// `LAJAN_TRUSTED_PROXIES`: addresses or CIDRs, comma-separated.
pub fn parse_trusted_proxies(list: &str) -> Result<Vec<IpNet>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.parse::<IpNet>()
                .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                .map_err(|_| format!("{item:?} is not an address or a CIDR like 10.0.0.0/8"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
        let trusted = parse_trusted_proxies("10.0.0.0/8, 192.168.1.10").unwrap();
        let (proxy, stranger): (IpAddr, IpAddr) = ("10.0.0.2".parse().unwrap(), "203.0.113.9".parse().unwrap());
        let spoofed = headers(&[("x-forwarded-for", "198.51.100.1")]);
        assert_eq!(client_address(stranger, &spoofed, &trusted), stranger, "a stranger's header is not believed");
        assert_eq!(client_address(proxy, &spoofed, &[]), proxy, "nobody is trusted by default");
        let chain = headers(&[("x-forwarded-for", "198.51.100.1, 203.0.113.7"), ("x-forwarded-for", "10.1.1.1")]);
        assert_eq!(
            client_address(proxy, &chain, &trusted),
            "203.0.113.7".parse::<IpAddr>().unwrap(),
            "right-most untrusted"
        );
        let all_ours = headers(&[("x-forwarded-for", "192.168.1.10, 10.3.3.3")]);
        assert_eq!(client_address(proxy, &all_ours, &trusted), "192.168.1.10".parse::<IpAddr>().unwrap());
        let garbage = headers(&[("x-forwarded-for", "198.51.100.1, unknown, 10.3.3.3")]);
        assert_eq!(
            client_address(proxy, &garbage, &trusted),
            "10.3.3.3".parse::<IpAddr>().unwrap(),
            "stops at what is not an address"
        );
        assert_eq!(client_address(proxy, &HeaderMap::new(), &trusted), proxy, "no header: the proxy itself");
        let rfc = headers(&[("forwarded", r#"for=198.51.100.1;proto=https, for="[2001:db8::1]:4711";by=10.0.0.2"#)]);
        assert_eq!(client_address(proxy, &rfc, &trusted), "2001:db8::1".parse::<IpAddr>().unwrap());
        let with_port = headers(&[("x-forwarded-for", "198.51.100.1:5555")]);
        assert_eq!(client_address(proxy, &with_port, &trusted), "198.51.100.1".parse::<IpAddr>().unwrap());
        assert!(parse_trusted_proxies("10.0.0.0/8, nope").unwrap_err().contains("nope"));
        assert_eq!(parse_trusted_proxies("").unwrap(), []);
    }
}
