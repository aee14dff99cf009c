//! A loopback OpenTelemetry collector for the tests: it answers every request 200 and keeps
//! what it was sent (protobuf keeps strings as they are, so span names can be read off).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// What the collector was sent: each request's line, content type and body.
pub(crate) type Requests = Arc<Mutex<Vec<(String, String, Vec<u8>)>>>;

/// A loopback HTTP server that answers every request 200 and keeps what it was sent.
pub(crate) fn collector() -> (u16, Requests) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let requests: Requests = Arc::default();
    let kept = requests.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let kept = kept.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let (mut length, mut kind) = (0usize, String::new());
                    loop {
                        let mut header = String::new();
                        reader.read_line(&mut header).unwrap_or(0);
                        let header = header.trim_end();
                        if header.is_empty() {
                            break;
                        }
                        let (name, value) = header.split_once(':').unwrap_or((header, ""));
                        match name.to_ascii_lowercase().as_str() {
                            "content-length" => length = value.trim().parse().unwrap_or(0),
                            "content-type" => kind = value.trim().to_string(),
                            _ => {}
                        }
                    }
                    let mut body = vec![0; length];
                    if reader.read_exact(&mut body).is_err() {
                        return;
                    }
                    kept.lock()
                        .unwrap()
                        .push((line.trim_end().to_string(), kind, body));
                    let _ = reader
                        .get_mut()
                        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n");
                }
            });
        }
    });
    (port, requests)
}

/// `needle` occurs in `haystack`.
pub(crate) fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Every body the collector was sent, one after another.
pub(crate) fn sent(requests: &Requests) -> Vec<u8> {
    requests
        .lock()
        .unwrap()
        .iter()
        .flat_map(|(_, _, b)| b.clone())
        .collect()
}
