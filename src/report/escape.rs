//! Escaping per output format, for text a spec wrote (titles, profile
//! names, sweep words): whatever a user types comes out as text, never as
//! a spreadsheet formula, HTML, a broken table or a terminal control.

use std::borrow::Cow;

/// `text` safe inside HTML elements and attributes.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Markdown (summary.md, compare.md), in a table cell or in running text:
/// `<`, `>` and `&` as entities (no raw HTML such as `<script>`), `|` as
/// `\|` (no broken table), line breaks as spaces.
pub fn markdown(text: &str) -> Cow<'_, str> {
    if !text.contains(['<', '>', '&', '|', '\n', '\r']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '|' => out.push_str("\\|"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// MediaWiki table text (compare.wiki): `|` and `!` (cell and header
/// separators), `{`, `}` (tables and templates), `[`, `]` (links), `<`
/// (tags) and `&` as numeric entities; line breaks as spaces.
pub fn wiki(text: &str) -> Cow<'_, str> {
    if !text.contains(['|', '!', '{', '}', '[', ']', '<', '&', '\n', '\r']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '|' | '!' | '{' | '}' | '[' | ']' | '<' | '&' => {
                out.push_str(&format!("&#{};", u32::from(c)));
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A CSV text field that a spreadsheet would read as a formula (starting
/// with `=`, `+`, `-`, `@`, a tab or a carriage return, and not a number)
/// gets a leading `'`, as OWASP advises; numbers such as `-3` stay as they
/// are.
pub fn csv_text(text: &str) -> Cow<'_, str> {
    let risky = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && text.trim().parse::<f64>().is_err() {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// Text for a terminal: control characters (ESC, BEL, ... but not line
/// breaks and tabs) shown as `\u{1b}`, so a name cannot move the cursor,
/// ring, retitle the window or hide what is printed.
pub fn terminal(text: &str) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(bad) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if bad(c) {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_escaped() {
        assert_eq!(markdown("<script>a|b"), "&lt;script&gt;a\\|b");
        assert_eq!(wiki("a|b"), "a&#124;b");
        assert_eq!(csv_text("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(csv_text("-3"), "-3");
        assert_eq!(csv_text("@SUM"), "'@SUM");
        assert_eq!(csv_text("Shoota"), "Shoota");
        assert_eq!(terminal("a\u{1b}[2Jb\u{7}"), "a\\u{1b}[2Jb\\u{7}");
        assert_eq!(terminal("line\nnext"), "line\nnext");
    }
}
