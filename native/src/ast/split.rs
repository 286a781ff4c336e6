//! Parsing only the top-level declarations that can hold a match.
//!
//! Once the literal prefilter has let a file through, parsing it is the
//! whole cost of a search, yet most of the file usually cannot hold a
//! match: a match lies inside one top-level declaration, and that
//! declaration must contain every literal token of the rule (the argument
//! the file prefilter rests on, applied to a part of the file). For Go,
//! whose top level is a flat list of declarations, a file is cut before
//! each line that starts a declaration (`func`, `type`, `var`, `const`,
//! `import` in the first column, outside strings, comments and brackets),
//! and tree-sitter parses only the declarations that hold the literals,
//! through its included ranges: nodes keep the byte offsets and points of
//! the whole file, so matches are reported exactly as from a full parse.
//!
//! A cut is only made where the lexer is sure: an unbalanced bracket (a
//! file with syntax errors) stops further cuts, leaving larger parts.

use super::compile::Matcher;
use ast_grep_language::SupportLang;
use std::ops::Range;

/// What to parse of a file.
#[derive(Debug, PartialEq)]
pub enum Plan {
    /// The whole file.
    Whole,
    /// Only these byte ranges: ascending, disjoint, not empty.
    Parts(Vec<Range<usize>>),
    /// Nothing: no declaration holds every literal of any rule.
    Nothing,
}

/// Above this share of the file's bytes, parsing parts saves too little to
/// be worth the loss of syntax-error reports for the rest.
const WORTH: f64 = 0.8;

/// Decides what of `src` to parse for `m`.
pub fn plan(m: &Matcher, src: &[u8]) -> Plan {
    if m.lang != SupportLang::Go || !m.prefilter || !rules_split(m) {
        return Plan::Whole;
    }
    let starts = go_decl_starts(src);
    if starts.len() < 2 {
        return Plan::Whole;
    }
    let mut parts: Vec<Range<usize>> = Vec::new();
    let mut kept = 0usize;
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(src.len());
        let decl = &src[start..end];
        let holds = m
            .rules
            .iter()
            .any(|r| r.literals.iter().all(|l| l.found_in(decl)));
        if !holds {
            continue;
        }
        kept += end - start;
        match parts.last_mut() {
            Some(last) if last.end == start => last.end = end,
            _ => parts.push(start..end),
        }
    }
    if parts.is_empty() {
        return Plan::Nothing;
    }
    if kept as f64 > WORTH * src.len() as f64 {
        return Plan::Whole;
    }
    Plan::Parts(parts)
}

/// Whether every rule of `m` can be matched part by part: a plain pattern
/// with literals whose root is smaller than a whole file.
fn rules_split(m: &Matcher) -> bool {
    m.rules.iter().all(|r| {
        r.engine.is_none()
            && !r.literals.is_empty()
            && !r.root_kinds.is_empty()
            && r.root_kinds
                .iter()
                .all(|k| !k.is_empty() && k != "*" && k != "source_file" && k != "ERROR")
    })
}

/// The byte offsets where the top-level parts of a Go source start: 0,
/// then each line that starts a declaration at bracket depth 0 outside
/// comments and literals.
pub fn go_decl_starts(src: &[u8]) -> Vec<usize> {
    let n = src.len();
    let mut starts = vec![0];
    let mut depth: i64 = 0;
    let mut at_line_start = true;
    let mut i = 0;
    while i < n {
        if at_line_start {
            at_line_start = false;
            if depth == 0 && i > 0 && starts_decl(&src[i..]) {
                starts.push(i);
            }
        }
        match src[i] {
            b'\n' => {
                at_line_start = true;
                i += 1;
            }
            b'/' if src.get(i + 1) == Some(&b'/') => {
                // To the newline, which the loop then sees.
                i = memchr::memchr(b'\n', &src[i..]).map_or(n, |k| i + k);
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&src[i + 2..], b"*/").map_or(n, |k| i + 2 + k + 2);
            }
            b'"' | b'\'' => i = skip_quoted(src, i),
            b'`' => i = memchr::memchr(b'`', &src[i + 1..]).map_or(n, |k| i + 1 + k + 1),
            b'{' | b'(' | b'[' => {
                depth += 1;
                i += 1;
            }
            b'}' | b')' | b']' => {
                depth -= 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    starts
}

/// The offset after the interpreted string or rune literal opening at `i`
/// (its quote byte closes it); an unterminated one ends before its line's
/// newline.
fn skip_quoted(src: &[u8], i: usize) -> usize {
    let quote = src[i];
    let mut j = i + 1;
    while j < src.len() {
        match src[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    src.len()
}

/// Whether a line starting with `s` starts a top-level declaration.
fn starts_decl(s: &[u8]) -> bool {
    const KEYWORDS: [&[u8]; 5] = [b"func", b"type", b"var", b"const", b"import"];
    KEYWORDS.iter().any(|kw| {
        s.starts_with(kw)
            && s.get(kw.len())
                .is_some_and(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80))
    })
}

/// The tree-sitter ranges of `parts` of `src`, with their points.
pub fn ts_ranges(src: &[u8], parts: &[Range<usize>]) -> Vec<tree_sitter::Range> {
    let mut row = 0usize;
    let mut line_start = 0usize;
    let mut pos = 0usize;
    let mut point = |to: usize| {
        for k in memchr::memchr_iter(b'\n', &src[pos..to]) {
            row += 1;
            line_start = pos + k + 1;
        }
        pos = to;
        tree_sitter::Point {
            row,
            column: to - line_start,
        }
    };
    parts
        .iter()
        .map(|r| {
            let start_point = point(r.start);
            let end_point = point(r.end);
            tree_sitter::Range {
                start_byte: r.start,
                end_byte: r.end,
                start_point,
                end_point,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts_of(src: &str) -> Vec<&str> {
        let s = go_decl_starts(src.as_bytes());
        s.iter()
            .map(|&i| src[i..].lines().next().unwrap_or(""))
            .collect()
    }

    #[test]
    fn cuts_before_top_level_declarations_only() {
        let src = "package p\n\nimport \"fmt\"\n\n// F does.\nfunc F() {\nfunc() {}()\n}\nvar x = `\nfunc not\n`\n/*\ntype T int\n*/\nconst c = \"{\"\ntype (\nA int\n)\nvar r = '('\nfunc G() {}\nfunctional := 1\n";
        assert_eq!(
            starts_of(src),
            vec![
                "package p",
                "import \"fmt\"",
                "func F() {",
                "var x = `",
                "const c = \"{\"",
                "type (",
                "var r = '('",
                "func G() {}",
            ]
        );
    }

    #[test]
    fn unbalanced_brackets_stop_cutting() {
        let src = "package p\nfunc F() {\n\nfunc G() {}\n";
        assert_eq!(starts_of(src), vec!["package p", "func F() {"]);
    }

    #[test]
    fn ranges_carry_points() {
        let src = b"ab\ncd\nef\n";
        let r = ts_ranges(src, &[3..6, 6..9]);
        assert_eq!((r[0].start_point.row, r[0].start_point.column), (1, 0));
        assert_eq!((r[0].end_point.row, r[0].end_point.column), (2, 0));
        assert_eq!((r[1].end_point.row, r[1].end_point.column), (3, 0));
    }
}
