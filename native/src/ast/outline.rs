//! The line spans of function bodies, for the read tool's structural
//! summaries: a summary shows a file's shape with the bodies elided. The
//! tree comes from the parse cache when the caller names the file and its
//! stamp, so a file the agent already searched is not parsed again (and a
//! file summarised first is searched from the same tree).
use super::cache::{self, Doc, Found, ParseCache, Stamp};
use super::parse::{self, Control, ParseFail, Stop};
use ast_grep_language::SupportLang;
use std::path::Path;
use std::sync::Arc;

/// Why no spans came back.
#[derive(Debug, PartialEq, Eq)]
pub enum Fail {
    /// The language has no outline rules.
    Unsupported,
    /// The source does not parse cleanly (a summary could hide where).
    Syntax,
    /// Not UTF-8: the engine parses text only.
    NotUtf8,
    Stopped(Stop),
    Failed(String),
}

/// The kinds of node whose `body` field a summary elides, per language;
/// other nodes (classes, impls, modules) are kept and searched for
/// functions inside them. `None`: no outline for the language.
fn function_kinds(lang: SupportLang) -> Option<&'static [&'static str]> {
    const JS: &[&str] = &[
        "function_declaration",
        "generator_function_declaration",
        "function",
        "function_expression",
        "generator_function",
        "method_definition",
        "arrow_function",
    ];
    match lang {
        SupportLang::Python => Some(&["function_definition"]),
        SupportLang::JavaScript | SupportLang::TypeScript | SupportLang::Tsx => Some(JS),
        SupportLang::Rust => Some(&["function_item"]),
        _ => None,
    }
}

/// A run of whole lines, 1-based and inclusive.
pub type Span = (u32, u32);

/// The lines of a body a summary may drop, from the signature's row and
/// the body's first and last rows (0-based). A braced body loses the lines
/// strictly between its brace lines; an indented (Python) body loses all
/// its lines when it starts below the signature.
fn body_span(sig_row: usize, start_row: usize, end_row: usize, braced: bool) -> Option<Span> {
    if braced {
        if end_row < start_row + 2 {
            return None;
        }
        return Some((start_row as u32 + 2, end_row as u32));
    }
    if start_row <= sig_row {
        return None;
    }
    Some((start_row as u32 + 1, end_row as u32 + 1))
}

/// The bodies of at least `min_lines` lines in the tree of `src`, in file
/// order; a function inside an elided body is not reported on its own.
pub fn bodies(
    lang: SupportLang,
    root: tree_sitter::Node,
    src: &[u8],
    min_lines: u32,
) -> Result<Vec<Span>, Fail> {
    let kinds = function_kinds(lang).ok_or(Fail::Unsupported)?;
    if root.has_error() {
        return Err(Fail::Syntax);
    }
    let braced = lang != SupportLang::Python;
    let mut spans = Vec::new();
    let mut c = root.walk();
    loop {
        let n = c.node();
        let mut descend = true;
        if n.is_named() && kinds.contains(&n.kind()) {
            if let Some(body) = n.child_by_field_name("body") {
                let block = braced
                    && body.end_byte() > body.start_byte()
                    && src.get(body.start_byte()) == Some(&b'{');
                // Arrow functions with an expression body are kept.
                if braced == block {
                    let end = body.end_position();
                    let mut end_row = end.row;
                    if end.column == 0 && end_row > body.start_position().row {
                        end_row -= 1; // the body ends at the start of the next line
                    }
                    let span = body_span(
                        n.start_position().row,
                        body.start_position().row,
                        end_row,
                        braced,
                    );
                    if let Some(s) = span.filter(|s| s.1 - s.0 + 1 >= min_lines.max(1)) {
                        spans.push(s);
                        descend = false;
                    }
                }
            }
        }
        if descend && c.goto_first_child() {
            continue;
        }
        while !c.goto_next_sibling() {
            if !c.goto_parent() {
                return Ok(spans);
            }
        }
    }
}

/// The body spans of `data` parsed as `lang`. With a cache, a path and
/// the stamp the caller saw before reading `data`, the tree is taken from
/// the cache when it holds this content, and stored there otherwise.
pub fn outline(
    lang: SupportLang,
    file: Option<(&ParseCache, &Path, Stamp)>,
    data: &[u8],
    min_lines: u32,
    ctl: &Control,
) -> Result<Vec<Span>, Fail> {
    function_kinds(lang).ok_or(Fail::Unsupported)?;
    if let Some((pc, path, stamp)) = file.filter(|f| f.0.enabled()) {
        let cached = match pc.lookup(path, lang, &stamp, 0) {
            Found::Doc(doc) => Some(doc),
            Found::Verify(hash, Some(doc), _) if cache::content_hash(data) == hash => {
                pc.confirm(path, lang, &stamp);
                Some(doc)
            }
            _ => None,
        };
        let doc = match cached {
            Some(doc) => doc,
            None => {
                let doc = Arc::new(parse_text(lang, data, ctl)?);
                pc.store_doc(path, lang, &stamp, doc.clone());
                doc
            }
        };
        return bodies(lang, doc.root().get_inner_node(), data, min_lines);
    }
    let doc = parse_text(lang, data, ctl)?;
    bodies(lang, doc.root().get_inner_node(), data, min_lines)
}

fn parse_text(lang: SupportLang, data: &[u8], ctl: &Control) -> Result<Doc, Fail> {
    let src = std::str::from_utf8(data).map_err(|_| Fail::NotUtf8)?;
    parse::parse(lang, src.to_string(), ctl).map_err(|e| match e {
        ParseFail::Stopped(s) => Fail::Stopped(s),
        ParseFail::Failed(m) => Fail::Failed(m),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(lang: SupportLang, src: &str, min: u32) -> Result<Vec<Span>, Fail> {
        let ctl = Control {
            cancel: None,
            deadline: None,
        };
        outline(lang, None, src.as_bytes(), min, &ctl)
    }

    #[test]
    fn python_bodies_and_nesting() {
        let src = "class A:\n    def f(self):\n        x = 1\n        return x\n\ndef g(): return 1\n\ndef h():\n    def inner():\n        pass\n    return inner\n";
        assert_eq!(
            spans(SupportLang::Python, src, 1),
            Ok(vec![(3, 4), (9, 11)])
        );
        assert_eq!(spans(SupportLang::Python, src, 3), Ok(vec![(9, 11)]));
    }

    #[test]
    fn braced_bodies_keep_brace_lines() {
        let src = "function f() {\n  a();\n  b();\n}\nconst g = () => 1;\nconst h = () => {\n  c();\n};\n";
        assert_eq!(
            spans(SupportLang::JavaScript, src, 1),
            Ok(vec![(2, 3), (7, 7)])
        );
        let rs = "impl T {\n    fn m(&self) {\n        one();\n    }\n}\nfn short() {}\n";
        assert_eq!(spans(SupportLang::Rust, rs, 1), Ok(vec![(3, 3)]));
    }

    #[test]
    fn refusals() {
        assert_eq!(
            spans(SupportLang::Python, "def f(:\n", 1),
            Err(Fail::Syntax)
        );
        assert_eq!(
            spans(SupportLang::C, "int f() {}\n", 1),
            Err(Fail::Unsupported)
        );
        let ctl = Control {
            cancel: None,
            deadline: None,
        };
        assert_eq!(
            outline(SupportLang::Python, None, b"x = '\xff'\n", 1, &ctl),
            Err(Fail::NotUtf8)
        );
    }
}
