//! Markdown to HTML that is safe to insert into the page.
//!
//! Lesson files are plain text from instructors, so raw HTML in them is shown as text, never
//! interpreted, and links may only use safe schemes. Sanitising by construction (filtering the
//! parser's events) keeps the web bundle free of a full HTML sanitiser.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, html};

/// The lab's Markdown: CommonMark plus tables, strikethrough and task lists.
fn parse(markdown: &str) -> Parser<'_> {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    Parser::new_ext(markdown, options)
}

/// Renders Markdown to sanitised HTML.
pub fn render_markdown(markdown: &str) -> String {
    let events = parse(markdown).map(|event| match event {
        // Raw HTML becomes visible text: escaped by the HTML writer.
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: safe_url(dest_url),
            title,
            id,
        }),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events);
    out
}

/// Keeps relative URLs, fragments and http(s)/mailto links; anything else (`javascript:`,
/// `data:`, `vbscript:`…) becomes a dead `#` link.
fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let scheme_end = url.find([':', '/', '?', '#']);
    let has_scheme = scheme_end.is_some_and(|i| url[i..].starts_with(':'));
    if !has_scheme {
        return url;
    }
    let lower = url.to_ascii_lowercase();
    if ["http:", "https:", "mailto:"]
        .iter()
        .any(|s| lower.starts_with(s))
    {
        url
    } else {
        CowStr::Borrowed("#")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_code_and_tables_render() {
        let html = render_markdown(
            "# Title\n\nSome `t.to(\"cuda\")` code.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        );
        assert!(html.contains("<h1>Title</h1>"));
        assert!(html.contains("<code>t.to(\"cuda\")</code>"), "{html}");
        assert!(html.contains("<table>"));
    }

    #[test]
    fn raw_html_is_shown_as_text_not_run() {
        let html = render_markdown(
            "<script>alert(1)</script>\n\nInline <img src=x onerror=alert(1)> too.",
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn dangerous_link_schemes_are_neutralised() {
        for link in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,x",
            "vbscript:x",
        ] {
            let html = render_markdown(&format!("[click]({link}) ![img]({link})"));
            assert!(
                !html
                    .to_ascii_lowercase()
                    .contains(&link.to_ascii_lowercase()[..6]),
                "{html}"
            );
            assert!(html.contains("href=\"#\""), "{html}");
        }
    }

    #[test]
    fn safe_links_are_kept() {
        let html = render_markdown(
            "[a](/lesson/devices) [b](https://pytorch.org) [c](#step-3) [d](x/y:z)",
        );
        for href in ["/lesson/devices", "https://pytorch.org", "#step-3", "x/y:z"] {
            assert!(html.contains(&format!("href=\"{href}\"")), "{html}");
        }
    }
}
