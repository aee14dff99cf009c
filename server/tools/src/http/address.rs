//! Which IP addresses count as public: the http tool reaches any other address (loopback,
//! private, link-local, …) only for a host its owner named (`allowedHosts`, `--allow-host`).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is not public. Its `Display` is what a refusal message shows ("loopback
/// address").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonPublic {
    /// 127.0.0.0/8, ::1
    Loopback,
    /// 10/8, 172.16/12, 192.168/16
    Private,
    /// 169.254/16 (cloud metadata services live at 169.254.169.254), fe80::/10
    LinkLocal,
    /// fc00::/7
    UniqueLocal,
    /// 100.64/10, the carrier-grade NAT range
    SharedCgnat,
    /// 0.0.0.0/8, :: — connecting to them reaches this machine
    Unspecified,
    /// 224/4, ff00::/8
    Multicast,
    /// 255.255.255.255
    Broadcast,
    /// 192.0.2/24, 198.51.100/24, 203.0.113/24, 2001:db8::/32, 3fff::/20
    Documentation,
    /// 198.18/15
    Benchmarking,
    /// Everything else outside the global unicast ranges: 192.0.0/24, 240/4, fec0::/10
    /// (site-local), IPv6 outside 2000::/3, the IETF protocol block 2001::/23, …
    Reserved,
}

impl fmt::Display for NonPublic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NonPublic::Loopback => "loopback address",
            NonPublic::Private => "private address",
            NonPublic::LinkLocal => "link-local address",
            NonPublic::UniqueLocal => "unique-local address",
            NonPublic::SharedCgnat => "carrier-grade NAT address",
            NonPublic::Unspecified => "unspecified address",
            NonPublic::Multicast => "multicast address",
            NonPublic::Broadcast => "broadcast address",
            NonPublic::Documentation => "documentation address",
            NonPublic::Benchmarking => "benchmarking address",
            NonPublic::Reserved => "reserved address",
        })
    }
}

/// `None` for a public (globally routable unicast) address, else why it is not one. IPv6 forms
/// that carry an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64
/// `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`) are judged by that IPv4 address, since
/// connecting to them can reach it.
pub fn classify(ip: IpAddr) -> Option<NonPublic> {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn classify_v4(ip: Ipv4Addr) -> Option<NonPublic> {
    let [a, b, c, _] = ip.octets();
    let kind = match (a, b, c) {
        (0, ..) => NonPublic::Unspecified,
        (127, ..) => NonPublic::Loopback,
        (10, ..) | (172, 16..=31, _) | (192, 168, _) => NonPublic::Private,
        (169, 254, _) => NonPublic::LinkLocal,
        (100, 64..=127, _) => NonPublic::SharedCgnat,
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => NonPublic::Documentation,
        (198, 18..=19, _) => NonPublic::Benchmarking,
        // IETF protocol assignments, and the deprecated 6to4 relay anycast block.
        (192, 0, 0) | (192, 88, 99) => NonPublic::Reserved,
        (224..=239, ..) => NonPublic::Multicast,
        _ if ip == Ipv4Addr::BROADCAST => NonPublic::Broadcast,
        (240..=255, ..) => NonPublic::Reserved,
        _ => return None,
    };
    Some(kind)
}

fn classify_v6(ip: Ipv6Addr) -> Option<NonPublic> {
    if ip.is_unspecified() {
        return Some(NonPublic::Unspecified);
    }
    if ip.is_loopback() {
        return Some(NonPublic::Loopback);
    }
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    let s = ip.segments();
    let kind = match s[0] {
        0xff00..=0xffff => NonPublic::Multicast,
        0xfe80..=0xfebf => NonPublic::LinkLocal,
        0xfec0..=0xfeff => NonPublic::Reserved,
        0xfc00..=0xfdff => NonPublic::UniqueLocal,
        0x2001 if s[1] == 0x0db8 => NonPublic::Documentation,
        0x3fff if s[1] < 0x1000 => NonPublic::Documentation,
        // IETF protocol assignments (Teredo, benchmarking, ORCHID, …).
        0x2001 if s[1] < 0x0200 => NonPublic::Reserved,
        // Global unicast is 2000::/3; the rest is unassigned or special.
        0x2000..=0x3fff => return None,
        _ => NonPublic::Reserved,
    };
    Some(kind)
}

/// The IPv4 address an IPv6 address reaches, for the forms that embed one.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let low = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    match s {
        // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated but still routed by some
        // stacks); `::` and `::1` were handled before.
        [0, 0, 0, 0, 0, 0xffff, hi, lo] | [0, 0, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        // NAT64 well-known prefix 64:ff9b::/96.
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some(low(hi, lo)),
        // 6to4: 2002:aabb:ccdd::/48 routes to a.b.c.d.
        [0x2002, hi, lo, ..] => Some(low(hi, lo)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::Url;

    fn kind(ip: &str) -> Option<NonPublic> {
        classify(ip.parse().unwrap_or_else(|e| panic!("{ip}: {e}")))
    }

    #[test]
    fn every_non_public_ipv4_range_is_named() {
        use NonPublic::*;
        for (ip, want) in [
            ("127.0.0.1", Loopback),
            ("127.255.255.254", Loopback),
            ("10.0.0.1", Private),
            ("10.255.255.255", Private),
            ("172.16.0.1", Private),
            ("172.31.255.255", Private),
            ("192.168.1.1", Private),
            ("169.254.169.254", LinkLocal),
            ("169.254.0.1", LinkLocal),
            ("100.64.0.1", SharedCgnat),
            ("100.127.255.255", SharedCgnat),
            ("0.0.0.0", Unspecified),
            ("0.1.2.3", Unspecified),
            ("224.0.0.1", Multicast),
            ("239.255.255.250", Multicast),
            ("255.255.255.255", Broadcast),
            ("240.0.0.1", Reserved),
            ("192.0.0.8", Reserved),
            ("192.88.99.1", Reserved),
            ("192.0.2.1", Documentation),
            ("198.51.100.7", Documentation),
            ("203.0.113.9", Documentation),
            ("198.18.0.1", Benchmarking),
            ("198.19.255.255", Benchmarking),
        ] {
            assert_eq!(kind(ip), Some(want), "{ip}");
        }
    }

    #[test]
    fn public_ipv4_addresses_pass_including_the_neighbours_of_each_range() {
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "93.184.216.34",
            "11.0.0.1",
            "126.255.255.255",
            "128.0.0.1",
            "172.15.255.255",
            "172.32.0.1",
            "192.167.255.255",
            "192.169.0.1",
            "169.253.255.255",
            "169.255.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "198.17.255.255",
            "198.20.0.1",
            "223.255.255.255",
        ] {
            assert_eq!(kind(ip), None, "{ip}");
        }
    }

    #[test]
    fn every_non_public_ipv6_range_is_named() {
        use NonPublic::*;
        for (ip, want) in [
            ("::1", Loopback),
            ("::", Unspecified),
            ("fe80::1", LinkLocal),
            ("febf:ffff::1", LinkLocal),
            ("fc00::1", UniqueLocal),
            ("fd12:3456:789a::1", UniqueLocal),
            ("ff02::1", Multicast),
            ("ff0e::1", Multicast),
            ("fec0::1", Reserved),
            ("2001:db8::1", Documentation),
            ("3fff::1", Documentation),
            ("2001::1", Reserved),
            ("2001:2::1", Reserved),
            ("100::1", Reserved),
            ("64:ff9b:1::1", Reserved),
            ("4000::1", Reserved),
        ] {
            assert_eq!(kind(ip), Some(want), "{ip}");
        }
        for ip in [
            "2606:4700:4700::1111",
            "2a00:1450:4001:81b::200e",
            "2001:4860::8888",
        ] {
            assert_eq!(kind(ip), None, "{ip}");
        }
    }

    #[test]
    fn ipv6_forms_of_ipv4_addresses_are_judged_by_the_ipv4_address() {
        use NonPublic::*;
        for (ip, want) in [
            ("::ffff:127.0.0.1", Some(Loopback)),
            ("::ffff:7f00:1", Some(Loopback)),
            ("::ffff:10.1.2.3", Some(Private)),
            ("::ffff:169.254.169.254", Some(LinkLocal)),
            ("::ffff:0.0.0.0", Some(Unspecified)),
            ("::127.0.0.1", Some(Loopback)),
            ("::192.168.0.1", Some(Private)),
            ("64:ff9b::127.0.0.1", Some(Loopback)),
            ("64:ff9b::a9fe:a9fe", Some(LinkLocal)),
            ("2002:7f00:1::", Some(Loopback)),
            ("2002:c0a8:101::1", Some(Private)),
            ("::ffff:8.8.8.8", None),
            ("64:ff9b::8.8.8.8", None),
            ("2002:808:808::1", None),
        ] {
            assert_eq!(kind(ip), want, "{ip}");
        }
    }

    /// Browsers and curl read these spellings as IPv4 addresses; so does the URL parser, so
    /// the classifier sees the address they mean.
    #[test]
    fn url_host_spellings_normalise_to_the_address_they_reach() {
        use NonPublic::*;
        for (url, want) in [
            ("http://2130706433/", Loopback),
            ("http://0177.0.0.1/", Loopback),
            ("http://0x7f.1/", Loopback),
            ("http://0x7f000001/", Loopback),
            ("http://127.1/", Loopback),
            ("http://127.0.1/", Loopback),
            ("http://017700000001/", Loopback),
            ("http://0/", Unspecified),
            ("http://0x0a.0.0.1/", Private),
            ("http://3232235777/", Private),
            ("http://0251.0376.0251.0376/", LinkLocal),
            ("http://[::ffff:127.0.0.1]/", Loopback),
            ("http://[::ffff:7f00:1]/", Loopback),
            ("http://[0:0:0:0:0:0:0:1]/", Loopback),
            ("http://[fe80::1]/", LinkLocal),
        ] {
            let parsed = Url::parse(url).unwrap();
            let ip: IpAddr = match parsed.host() {
                Some(url::Host::Ipv4(ip)) => ip.into(),
                Some(url::Host::Ipv6(ip)) => ip.into(),
                other => panic!("{url} parsed as {other:?}"),
            };
            assert_eq!(classify(ip), Some(want), "{url} → {ip}");
        }
    }
}
