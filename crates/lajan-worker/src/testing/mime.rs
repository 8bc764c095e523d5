//! Just enough MIME reading to check what a sender put on the wire, independent of lettre:
//! unfolded headers, RFC 2047 encoded words, (nested) multipart bodies, and the quoted-printable
//! and base64 transfer encodings.

use base64::Engine as _;

/// A message or body part split into unfolded headers and raw (still encoded) body.
pub(crate) struct Parsed {
    headers: Vec<(String, String)>,
    body: String,
}

impl Parsed {
    /// The first header called `name` (any case), unfolded but not decoded.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

pub(crate) fn parse(raw: &str) -> Parsed {
    // A part without headers starts with the blank line right away.
    let (head, body) = match raw.strip_prefix("\r\n") {
        Some(body) => ("", body),
        None => raw.split_once("\r\n\r\n").unwrap_or((raw, "")),
    };
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            let last = headers.last_mut().expect("MIME: continuation line before any header");
            last.1.push(' ');
            last.1.push_str(line.trim());
        } else if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    Parsed { headers, body: body.to_owned() }
}

/// The content type and decoded text (line breaks as `\n`) of each leaf part, in order, looking
/// inside nested multiparts. A message that is not multipart is its own single leaf.
pub(crate) fn leaf_parts(raw: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    collect_leaves(raw, &mut out);
    out
}

fn collect_leaves(raw: &str, out: &mut Vec<(String, String)>) {
    let part = parse(raw);
    let content_type = part.header("Content-Type").unwrap_or("text/plain").to_owned();
    if !content_type.to_ascii_lowercase().starts_with("multipart/") {
        out.push((content_type.clone(), decode_body(&part, &content_type)));
        return;
    }
    let boundary = parameter(&content_type, "boundary")
        .unwrap_or_else(|| panic!("MIME: multipart without a boundary: {content_type}"));
    // A delimiter is a whole line; the line break before it belongs to the delimiter, not the part.
    let body = format!("\r\n{}", part.body);
    for chunk in body.split(format!("\r\n--{boundary}").as_str()).skip(1) {
        if chunk.starts_with("--") {
            break;
        }
        // The rest of the delimiter line (transport padding) is not part of the body part.
        let inner = chunk.split_once("\r\n").map_or("", |(_, rest)| rest);
        collect_leaves(inner, out);
    }
}

fn parameter(header_value: &str, name: &str) -> Option<String> {
    header_value.split(';').skip(1).find_map(|p| {
        let (key, value) = p.split_once('=')?;
        key.trim().eq_ignore_ascii_case(name).then(|| value.trim().trim_matches('"').to_owned())
    })
}

fn decode_body(part: &Parsed, content_type: &str) -> String {
    let encoding = part.header("Content-Transfer-Encoding").unwrap_or("7bit").to_ascii_lowercase();
    let bytes = match encoding.as_str() {
        "quoted-printable" => decode_qp(&part.body),
        "base64" => {
            let compact: String = part.body.chars().filter(|c| !c.is_whitespace()).collect();
            base64::engine::general_purpose::STANDARD
                .decode(compact)
                .unwrap_or_else(|e| panic!("MIME: {content_type} part is not valid base64: {e}"))
        }
        _ => part.body.clone().into_bytes(),
    };
    let text = if content_type.to_ascii_lowercase().starts_with("text/") {
        String::from_utf8(bytes).unwrap_or_else(|e| panic!("MIME: {content_type} part is not UTF-8: {e}"))
    } else {
        // An attachment: its text is only good for a rough look.
        String::from_utf8_lossy(&bytes).into_owned()
    };
    text.replace("\r\n", "\n")
}

/// Quoted-printable: `=XX` escapes and `=` soft line breaks; anything malformed is kept as is.
fn decode_qp(s: &str) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'=' {
            if bytes[i + 1..].starts_with(b"\r\n") {
                i += 3;
                continue;
            }
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            if let Some(byte) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

/// Decodes RFC 2047 encoded words (`=?utf-8?b?...?=` and `?q?`) in a header value; whitespace
/// between two adjacent encoded words is not part of the text.
pub(crate) fn decode_header(value: &str) -> String {
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
                "q" => decode_qp(&text.replace('_', " ")),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_multiparts_and_encodings() {
        let raw = "Subject: =?utf-8?q?Bonjou_Ha=C3=AFti?= =?utf-8?b?IQ==?=\r\n\
                   Content-Type: multipart/mixed;\r\n boundary=\"outer\"\r\n\r\n\
                   preamble\r\n\
                   --outer\r\n\
                   Content-Type: multipart/alternative; boundary=inner\r\n\r\n\
                   --inner\r\n\
                   Content-Type: text/plain; charset=utf-8\r\n\
                   Content-Transfer-Encoding: quoted-printable\r\n\r\n\
                   Ha=C3=AFti, a long line=\r\n that goes on\r\n\
                   --inner\r\n\
                   Content-Type: text/html; charset=utf-8\r\n\
                   Content-Transfer-Encoding: base64\r\n\r\n\
                   PHA+SGHDr3RpPC9wPg==\r\n\
                   --inner--\r\n\
                   --outer\r\n\r\n\
                   no headers, so text/plain\r\n\
                   --outer--\r\n";
        assert_eq!(decode_header(parse(raw).header("subject").unwrap()), "Bonjou Haïti!");
        assert_eq!(
            leaf_parts(raw),
            [
                ("text/plain; charset=utf-8".to_owned(), "Haïti, a long line that goes on".to_owned()),
                ("text/html; charset=utf-8".to_owned(), "<p>Haïti</p>".to_owned()),
                ("text/plain".to_owned(), "no headers, so text/plain".to_owned()),
            ]
        );
        assert_eq!(decode_qp("a=3Db=\r\nc=zz="), b"a=bc=zz=");
    }
}
