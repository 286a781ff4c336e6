//! The wire formats shared with the Go binding (all integers little
//! endian, strings as u32 length + bytes).
//!
//! Rules in: `u32 count`, then per rule `str pattern`, `u8 has_rewrite`,
//! `str rewrite`, `str config`. A non-empty `config` is an ast-grep rule
//! document (YAML or JSON: `rule`, `constraints`, `utils`, `transform`,
//! `rewriters`, `fix` and `sg scan`'s metadata keys) run by ast-grep's rule
//! engine; `pattern` and `rewrite` are then ignored.
//!
//! Inputs in: `u32 count`, then per input `u8 kind` (0 = path to read,
//! 1 = buffer), `str name`, and for buffers `u64 length` + bytes.
//!
//! Results out: `u32 count` (= inputs), then per input `u8 status`,
//! `u8 syntax_error`, `str message`, `u32 matches`; when there are matches,
//! the source they refer to: `u32 segments`, each `u64 offset` + `str
//! bytes` (ordered by offset, not overlapping); then per match `u32 rule`,
//! `pos start`, `pos end` (pos = `u32 line`, `u32 column`, `u64 offset`),
//! `u64 lines_start`, `u64 lines_end`, `u32 captures` (each `str name`,
//! `u8 kind` (0 single, 1 multi, 2 a rule's transformed variable: one node
//! with text of its own), `u32 nodes`, each node `pos start`, `pos end`,
//! and for kind 2 `str text`), `u8 has_edit` and, when set, `u64 start`,
//! `u64 end`, `str replacement`. The text of a match, of a captured node
//! and of the lines a match touches (whole lines without the last newline)
//! is the source between its two offsets, found in the segments: sent once
//! per file, however many matches share or nest in it.
use super::compile::RuleSpec;
use super::search::{FileRecord, Pos};

/// A cursor over an input blob.
pub struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, at: 0 }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.buf.len() - self.at < n {
            return Err(format!("truncated input blob at byte {}", self.at));
        }
        let s = &self.buf[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    pub fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    pub fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    pub fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().unwrap()))
    }
    pub fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    pub fn string(&mut self) -> Result<String, String> {
        let b = self.bytes()?;
        String::from_utf8(b.to_vec()).map_err(|_| "string in input blob is not UTF-8".to_string())
    }
}

/// Decodes the rule list.
pub fn read_rules(buf: &[u8]) -> Result<Vec<RuleSpec>, String> {
    let mut r = Reader::new(buf);
    let n = r.u32()?;
    let mut out = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let pattern = r.string()?;
        let has = r.u8()?;
        let rewrite = r.string()?;
        let config = r.string()?;
        out.push(RuleSpec {
            pattern,
            rewrite: (has != 0).then_some(rewrite),
            config: (!config.is_empty()).then_some(config),
        });
    }
    Ok(out)
}

/// One input of a search batch.
pub enum Input<'a> {
    /// A file path as the caller's bytes (not necessarily UTF-8).
    Path(std::path::PathBuf),
    Buffer(&'a [u8]),
}

/// Decodes the input list.
pub fn read_inputs(buf: &[u8]) -> Result<Vec<Input<'_>>, String> {
    let mut r = Reader::new(buf);
    let n = r.u32()?;
    // The count comes from the caller: bound the reservation by what the
    // blob could hold (an entry takes at least five bytes).
    let mut out = Vec::with_capacity((n as usize).min(buf.len() / 5));
    for _ in 0..n {
        let kind = r.u8()?;
        let name = r.bytes()?;
        match kind {
            0 => out.push(Input::Path(path_from_bytes(name))),
            1 => {
                let len = r.u64()? as usize;
                out.push(Input::Buffer(r.take(len)?));
            }
            k => return Err(format!("unknown input kind {k}")),
        }
    }
    Ok(out)
}

/// A path from the caller's bytes: any bytes on Unix, where file names need
/// not be UTF-8; elsewhere invalid UTF-8 is replaced (such a name cannot
/// come from the Go side there).
pub fn path_from_bytes(b: &[u8]) -> std::path::PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::OsStr::from_bytes(b).into()
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(b).into_owned().into()
    }
}

/// Builds a result buffer.
pub struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn new(count: usize) -> Self {
        let mut w = Writer {
            buf: Vec::with_capacity(64 * count + 4),
        };
        w.u32(count as u32);
        w
    }
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len() as u32);
        self.buf.extend_from_slice(b);
    }
    fn pos(&mut self, p: &Pos) {
        self.u32(p.line);
        self.u32(p.column);
        self.u64(p.offset);
    }

    /// Appends one file's record.
    pub fn record(&mut self, rec: &FileRecord) {
        self.u8(rec.status as u8);
        self.u8(rec.syntax_error as u8);
        self.bytes(rec.message.as_bytes());
        self.u32(rec.matches.len() as u32);
        if rec.matches.is_empty() {
            return;
        }
        self.u32(rec.source.len() as u32);
        for s in &rec.source {
            self.u64(s.offset as u64);
            self.bytes(&s.bytes);
        }
        for m in &rec.matches {
            self.u32(m.rule);
            self.pos(&m.start);
            self.pos(&m.end);
            self.u64(m.lines.0 as u64);
            self.u64(m.lines.1 as u64);
            self.u32(m.captures.len() as u32);
            for c in &m.captures {
                self.bytes(c.name.as_bytes());
                self.u8(if c.transformed { 2 } else { c.multi as u8 });
                self.u32(c.nodes.len() as u32);
                for n in &c.nodes {
                    self.pos(&n.start);
                    self.pos(&n.end);
                    if c.transformed {
                        self.bytes(n.own_text.as_deref().unwrap_or("").as_bytes());
                    }
                }
            }
            match &m.edit {
                Some(e) => {
                    self.u8(1);
                    self.u64(e.start);
                    self.u64(e.end);
                    self.bytes(&e.replacement);
                }
                None => self.u8(0),
            }
        }
    }
}
