//! Just enough MIME reading to check what lettre put on the wire, independent of lettre.

use base64::Engine as _;

/// A message split into unfolded headers and raw body.
pub struct Parsed {
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Parsed {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

pub fn parse(raw: &str) -> Parsed {
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((raw, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            let last = headers.last_mut().expect("continuation line before any header");
            last.1.push(' ');
            last.1.push_str(line.trim());
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    Parsed { headers, body: body.to_owned() }
}

/// The decoded text of each leaf part of a multipart message, with its content type.
pub fn text_parts(raw: &str) -> Vec<(String, String)> {
    let top = parse(raw);
    let content_type = top.header("Content-Type").expect("Content-Type").to_owned();
    let boundary = content_type
        .split(';')
        .map(str::trim)
        .find_map(|p| p.strip_prefix("boundary="))
        .expect("multipart boundary")
        .trim_matches('"')
        .to_owned();
    let delimiter = format!("--{boundary}");
    top.body
        .split(delimiter.as_str())
        .skip(1)
        .filter(|p| !p.starts_with("--"))
        .map(|p| {
            let part = parse(p.trim_start_matches("\r\n"));
            let ct = part.header("Content-Type").unwrap_or("text/plain").to_owned();
            let encoding = part.header("Content-Transfer-Encoding").unwrap_or("7bit").to_ascii_lowercase();
            let text = match encoding.as_str() {
                "quoted-printable" => decode_qp(&part.body),
                "base64" => {
                    let compact: String = part.body.chars().filter(|c| !c.is_whitespace()).collect();
                    String::from_utf8(base64::engine::general_purpose::STANDARD.decode(compact).expect("base64"))
                        .expect("utf-8")
                }
                _ => part.body.clone(),
            };
            (ct, text.replace("\r\n", "\n"))
        })
        .collect()
}

fn decode_qp(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'=' if bytes[i + 1..].starts_with(b"\r\n") => i += 3,
            b'=' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).expect("ascii");
                out.push(u8::from_str_radix(hex, 16).expect("qp hex"));
                i += 3;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).expect("utf-8")
}

/// Decodes RFC 2047 encoded words (`=?utf-8?b?...?=` and `?q?`) in a header value; whitespace
/// between two adjacent encoded words is not part of the text.
pub fn decode_header(value: &str) -> String {
    let mut out = String::new();
    let mut pending_space = String::new();
    let mut last_was_encoded = false;
    for token in value.split_inclusive(' ') {
        let word = token.trim_end_matches(' ');
        let trailing = &token[word.len()..];
        let decoded = word.strip_prefix("=?").and_then(|w| w.strip_suffix("?=")).and_then(|w| {
            let mut it = w.splitn(3, '?');
            let (_charset, enc, text) = (it.next()?, it.next()?, it.next()?);
            let bytes = match enc.to_ascii_lowercase().as_str() {
                "b" => base64::engine::general_purpose::STANDARD.decode(text).ok()?,
                "q" => decode_qp(&text.replace('_', " ")).into_bytes(),
                _ => return None,
            };
            String::from_utf8(bytes).ok()
        });
        match decoded {
            Some(text) => {
                if !last_was_encoded {
                    out.push_str(&pending_space);
                }
                out.push_str(&text);
                last_was_encoded = true;
            }
            None => {
                out.push_str(&pending_space);
                out.push_str(word);
                last_was_encoded = false;
            }
        }
        pending_space = trailing.to_owned();
    }
    out
}
