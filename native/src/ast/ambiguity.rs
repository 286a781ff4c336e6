//! Alternative parses for ambiguous patterns.
//!
//! A pattern is parsed on its own, without the code around it, and some
//! grammars then pick a reading real code rarely has. tree-sitter-go reads
//! `fmt.Errorf($$$A)` as a conversion of `$$$A` to the type `fmt.Errorf`,
//! while every call with two or more arguments in real code is a
//! `call_expression`, so the plain pattern finds almost nothing.
//!
//! For each `type_conversion_expression` in a Go pattern we build a second
//! parse in which it is a call: we append one extra argument, `$$$GOPIALTn`,
//! before the closing parenthesis, which only a call allows, compile that
//! text, and cut the extra argument (and its comma) out of the compiled
//! pattern again. The rule then matches with both parses; a node matched
//! by both is reported once.
use ast_grep_core::matcher::PatternNode;
use ast_grep_core::meta_var::MetaVariable;
use ast_grep_core::tree_sitter::LanguageExt;
use ast_grep_core::{Language, Pattern};
use ast_grep_language::SupportLang;

const MARK: &str = "GOPIALT";

/// Alternative parses of `src` for `lang` (usually none).
pub fn alternatives(lang: SupportLang, src: &str) -> Vec<Pattern> {
    if lang != SupportLang::Go {
        return Vec::new();
    }
    let processed = lang.pre_process_pattern(src).into_owned();
    let closers = conversion_closers(lang, &processed);
    if closers.is_empty() {
        return Vec::new();
    }
    let expando = lang.expando_char();
    let mut text = processed.clone();
    // Insert from the back so earlier offsets stay valid.
    for (i, &at) in closers.iter().enumerate().rev() {
        let marker = format!(", {e}{e}{e}{MARK}{i}", e = expando);
        text.insert_str(at, &marker);
    }
    let Ok(mut alt) = Pattern::try_new(&text, lang) else {
        return Vec::new();
    };
    if alt.has_error() {
        return Vec::new();
    }
    let removed = strip_markers(&mut alt.node);
    if removed != closers.len() {
        return Vec::new();
    }
    vec![alt]
}

/// Byte offsets of the closing parenthesis of every type conversion in the
/// parse of `text`.
fn conversion_closers(lang: SupportLang, text: &str) -> Vec<usize> {
    let mut parser = tree_sitter::Parser::new();
    if parser.set_language(&lang.get_ts_language()).is_err() {
        return Vec::new();
    }
    let Some(tree) = parser.parse(text, None) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        if node.kind() == "type_conversion_expression" {
            let n = node.child_count();
            if n > 0 {
                if let Some(last) = node.child(n - 1) {
                    if last.kind() == ")" && !last.is_missing() {
                        out.push(last.start_byte());
                    }
                }
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                out.sort_unstable();
                return out;
            }
        }
    }
}

/// Removes every `$$$GOPIALTn` node and the comma before it; returns how
/// many were removed.
fn strip_markers(node: &mut PatternNode) -> usize {
    let PatternNode::Internal { children, .. } = node else {
        return 0;
    };
    let mut removed = 0;
    let mut i = 0;
    while i < children.len() {
        let is_marker = matches!(
            &children[i],
            PatternNode::MetaVar { meta_var: MetaVariable::MultiCapture(name) } if name.starts_with(MARK)
        );
        if is_marker {
            children.remove(i);
            if i > 0
                && matches!(&children[i - 1], PatternNode::Terminal { text, .. } if text == ",")
            {
                children.remove(i - 1);
                i -= 1;
            }
            removed += 1;
            continue;
        }
        removed += strip_markers(&mut children[i]);
        i += 1;
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;
    use ast_grep_core::tree_sitter::LanguageExt;

    fn count(pat: &Pattern, src: &str) -> usize {
        let root = SupportLang::Go.ast_grep(src);
        root.root().find_all(pat).count()
    }

    #[test]
    fn go_call_alternative() {
        let alts = alternatives(SupportLang::Go, "fmt.Errorf($$$A)");
        assert_eq!(alts.len(), 1);
        let src = "package p\nfunc f() error { return fmt.Errorf(\"x %d\", 1) }\n";
        assert_eq!(count(&alts[0], src), 1);
    }

    #[test]
    fn no_alternative_for_plain_call() {
        assert!(alternatives(SupportLang::Go, "fmt.Println($A, $B)").is_empty());
        assert!(alternatives(SupportLang::Python, "f($$$A)").is_empty());
    }
}
