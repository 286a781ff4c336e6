//! The `gopi_ast_*` C functions (declared in `include/gopi_native.h`).
//! Every body runs under [`guard`], so a panic becomes an error value.
use super::cache::{self, ParseCache};
use super::compile::{self, Matcher};
use super::encode::{self, Input, Writer};
use super::lang;
use super::parse::{Control, Stop};
use super::search::{self, FileRecord, Status, Want};
use crate::ffi::{bytes, c_string, free_boxed, guard, into_raw, set_message};
use std::ffi::c_char;
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Collect captured metavariables.
pub const FLAG_CAPTURES: u32 = 1;
/// Compute the edits of rules with a rewrite.
pub const FLAG_EDITS: u32 = 2;
/// Parse every input, even those the literal prefilter rules out.
pub const FLAG_NO_PREFILTER: u32 = 4;

/// Search options (C layout).
#[repr(C)]
pub struct SearchOptions {
    /// Files larger than this are not read (0: no limit).
    pub max_file_size: u64,
    /// Stop after this many milliseconds (0: no timeout).
    pub timeout_ms: i64,
    pub flags: u32,
    /// The parse cache for files read from disk (null: none).
    pub cache: *const ParseCache,
}

/// What the caller saw of a file before reading it (C layout): size,
/// modification time (`has_mtime` 0: unknown), inode, device and
/// status-change time (`has_ctime` 0: unknown).
#[repr(C)]
pub struct FileStamp {
    pub size: u64,
    pub mtime_sec: i64,
    pub mtime_nsec: u32,
    pub has_mtime: u32,
    pub ino: u64,
    pub dev: u64,
    pub ctime_sec: i64,
    pub ctime_nsec: u32,
    pub has_ctime: u32,
}

impl FileStamp {
    fn stamp(&self) -> cache::Stamp {
        let mtime = (self.has_mtime != 0).then(|| {
            let nanos = Duration::from_nanos(u64::from(self.mtime_nsec));
            if self.mtime_sec >= 0 {
                std::time::UNIX_EPOCH + Duration::from_secs(self.mtime_sec as u64) + nanos
            } else {
                std::time::UNIX_EPOCH - Duration::from_secs(self.mtime_sec.unsigned_abs()) + nanos
            }
        });
        let ctime = (self.has_ctime != 0).then_some((self.ctime_sec, self.ctime_nsec));
        cache::Stamp::new(self.size, mtime, self.ino, self.dev, ctime)
    }
}

/// Gives `buf` to the caller, who frees it with gopi_ast_buffer_free.
///
/// # Safety
/// `out` and `out_len` writable.
unsafe fn hand_out(buf: Vec<u8>, out: *mut *mut u8, out_len: *mut usize) {
    let mut buf = buf.into_boxed_slice();
    *out_len = buf.len();
    *out = buf.as_mut_ptr();
    std::mem::forget(buf);
    crate::ffi::count_alloc();
}

/// Outline results (see gopi_ast_outline).
pub const OUTLINE_OK: i32 = 0;
pub const OUTLINE_SYNTAX: i32 = 1;
pub const OUTLINE_CANCELLED: i32 = 2;
pub const OUTLINE_UNSUPPORTED: i32 = 3;
pub const OUTLINE_NOT_UTF8: i32 = 4;

/// The function bodies of `data` parsed as the language named `lang`, for
/// a structural summary: `*out` gets `u32 count` and per body `u32 first`,
/// `u32 last` (1-based lines, inclusive; free with gopi_ast_buffer_free).
/// With `cache` set, `path_len` > 0 and `stamp` set (what the caller saw
/// before reading `data`), the tree goes through that parse cache. Returns OUTLINE_OK,
/// OUTLINE_SYNTAX, OUTLINE_CANCELLED, OUTLINE_UNSUPPORTED, OUTLINE_NOT_UTF8
/// or -1 with `*err` set.
///
/// # Safety
/// Pointers valid for their lengths; `cache`, `stamp` and `cancel` null or
/// valid; `out`, `out_len` writable; `err` null or writable.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_outline(
    lang_name: *const u8,
    lang_len: usize,
    path: *const u8,
    path_len: usize,
    stamp: *const FileStamp,
    data: *const u8,
    data_len: usize,
    min_lines: u32,
    cache: *const ParseCache,
    cancel: *const CancelFlag,
    out: *mut *mut u8,
    out_len: *mut usize,
    err: *mut *mut c_char,
) -> i32 {
    guard(err, -1, || {
        *out = ptr::null_mut();
        *out_len = 0;
        let name = String::from_utf8_lossy(bytes(lang_name, lang_len)).into_owned();
        let Some(l) = lang::by_name(&name) else {
            return OUTLINE_UNSUPPORTED;
        };
        let file_path = (path_len > 0).then(|| encode::path_from_bytes(bytes(path, path_len)));
        let file = match (cache.as_ref(), &file_path, stamp.as_ref()) {
            (Some(pc), Some(p), Some(st)) => Some((pc, p.as_path(), st.stamp())),
            _ => None,
        };
        let ctl = Control {
            cancel: cancel.as_ref().map(|c| &c.0),
            deadline: None,
        };
        use super::outline::{outline, Fail};
        match outline(l, file, bytes(data, data_len), min_lines, &ctl) {
            Ok(spans) => {
                let mut buf = Vec::with_capacity(4 + 8 * spans.len());
                buf.extend_from_slice(&(spans.len() as u32).to_le_bytes());
                for (a, b) in spans {
                    buf.extend_from_slice(&a.to_le_bytes());
                    buf.extend_from_slice(&b.to_le_bytes());
                }
                hand_out(buf, out, out_len);
                OUTLINE_OK
            }
            Err(Fail::Syntax) => OUTLINE_SYNTAX,
            Err(Fail::Unsupported) => OUTLINE_UNSUPPORTED,
            Err(Fail::NotUtf8) => OUTLINE_NOT_UTF8,
            Err(Fail::Stopped(_)) => OUTLINE_CANCELLED,
            Err(Fail::Failed(m)) => {
                set_message(err, &m);
                -1
            }
        }
    })
}

/// A cancel flag shared between Go and any number of running searches.
pub struct CancelFlag(AtomicBool);

/// Compiles `rules` (patterns, or ast-grep rule documents: see
/// [`encode`]) for the language named `lang`. On failure returns null with
/// `*err_rule` = index of the failing rule (-1: not rule specific) and
/// `*err` = message.
///
/// # Safety
/// Pointers must be valid for their lengths; `err_rule`/`err` null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_matcher_new(
    lang_name: *const u8,
    lang_len: usize,
    rules: *const u8,
    rules_len: usize,
    strictness: u32,
    err_rule: *mut i32,
    err: *mut *mut c_char,
) -> *mut Matcher {
    guard(err, ptr::null_mut(), || {
        let fail = |idx: i32, msg: &str| {
            if !err_rule.is_null() {
                *err_rule = idx;
            }
            set_message(err, msg);
            ptr::null_mut()
        };
        let name = String::from_utf8_lossy(bytes(lang_name, lang_len)).into_owned();
        let Some(l) = lang::by_name(&name) else {
            return fail(
                -1,
                &format!("language {name:?} is not linked into this build"),
            );
        };
        let strict = match compile::strictness(strictness) {
            Ok(s) => s,
            Err(e) => return fail(-1, &e),
        };
        let specs = match encode::read_rules(bytes(rules, rules_len)) {
            Ok(s) => s,
            Err(e) => return fail(-1, &e),
        };
        match Matcher::new(l, &specs, strict) {
            Ok(m) => into_raw(m),
            Err(e) => fail(e.index as i32, &e.message),
        }
    })
}

/// Frees a matcher. Null is ignored.
///
/// # Safety
/// `m` null or from `gopi_ast_matcher_new`, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_matcher_free(m: *mut Matcher) {
    guard(ptr::null_mut(), (), || free_boxed(m))
}

/// Describes a matcher as text, one line per parse of each rule:
/// `rule<TAB>root-kind<TAB>literal,literal...` (for a rule-engine rule, one
/// line with the kinds it can match joined by `|`). Free with
/// gopi_string_free.
///
/// # Safety
/// `m` valid; `err` null or writable.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_matcher_describe(
    m: *const Matcher,
    err: *mut *mut c_char,
) -> *mut c_char {
    guard(err, ptr::null_mut(), || {
        let m = &*m;
        let mut out = String::new();
        for (i, r) in m.rules.iter().enumerate() {
            let lits: Vec<String> = r
                .literals
                .iter()
                .map(|l| {
                    let t = String::from_utf8_lossy(&l.text).into_owned();
                    if l.word {
                        format!("{t}\\b")
                    } else {
                        t
                    }
                })
                .collect();
            for k in &r.root_kinds {
                out.push_str(&format!("{i}\t{k}\t{}\n", lits.join(",")));
            }
        }
        c_string(&out)
    })
}

/// The canonical names of the linked languages, comma separated. Free with
/// gopi_string_free.
#[no_mangle]
pub extern "C" fn gopi_ast_languages() -> *mut c_char {
    guard(
        ptr::null_mut(),
        ptr::null_mut(),
        || c_string(&lang::names()),
    )
}

/// Creates a cancel flag (free with gopi_ast_cancel_free).
#[no_mangle]
pub extern "C" fn gopi_ast_cancel_new() -> *mut CancelFlag {
    guard(ptr::null_mut(), ptr::null_mut(), || {
        into_raw(CancelFlag(AtomicBool::new(false)))
    })
}

/// Sets a cancel flag: running and later searches using it stop.
///
/// # Safety
/// `c` valid.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_cancel_set(c: *const CancelFlag) {
    guard(ptr::null_mut(), (), || {
        (*c).0.store(true, Ordering::Relaxed)
    })
}

/// Frees a cancel flag. Null is ignored.
///
/// # Safety
/// `c` null or from gopi_ast_cancel_new; no search may still use it.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_cancel_free(c: *mut CancelFlag) {
    guard(ptr::null_mut(), (), || free_boxed(c))
}

/// Searches a batch of inputs. Returns 0 (done), 1 (cancelled), 2 (timed
/// out: the records of unfinished inputs have status 7) or -1 (failure,
/// `*err` set). On 0, 1 and 2, `*out`/`*out_len` hold the result buffer,
/// owned by the caller and released with gopi_ast_buffer_free.
///
/// # Safety
/// Pointers valid for their lengths; `cancel` null or valid; outputs
/// writable.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_search(
    m: *const Matcher,
    inputs: *const u8,
    inputs_len: usize,
    opts: *const SearchOptions,
    cancel: *const CancelFlag,
    out: *mut *mut u8,
    out_len: *mut usize,
    err: *mut *mut c_char,
) -> i32 {
    guard(err, -1, || {
        let m = &*m;
        let opts = &*opts;
        let items = match encode::read_inputs(bytes(inputs, inputs_len)) {
            Ok(v) => v,
            Err(e) => {
                set_message(err, &e);
                return -1;
            }
        };
        let ctl = Control {
            cancel: cancel.as_ref().map(|c| &c.0),
            deadline: (opts.timeout_ms > 0)
                .then(|| Instant::now() + Duration::from_millis(opts.timeout_ms as u64)),
        };
        let want = Want {
            captures: opts.flags & FLAG_CAPTURES != 0,
            edits: opts.flags & FLAG_EDITS != 0,
            prefilter: opts.flags & FLAG_NO_PREFILTER == 0,
        };
        let pc = opts.cache.as_ref().filter(|c| c.enabled());
        let mut w = Writer::new(items.len());
        let mut stop: Option<Stop> = None;
        for item in &items {
            if stop.is_none() {
                stop = ctl.stopped();
            }
            let rec = if stop.is_some() {
                FileRecord::new(Status::Stopped, "")
            } else {
                let (rec, s) = search_one(m, item, opts.max_file_size, &want, pc, &ctl);
                stop = s;
                rec
            };
            w.record(&rec);
        }
        crate::ast::parse::trim_if_due();
        hand_out(w.buf, out, out_len);
        match stop {
            None => 0,
            Some(Stop::Cancelled) => 1,
            Some(Stop::Timeout) => 2,
        }
    })
}

fn search_one(
    m: &Matcher,
    item: &Input,
    max: u64,
    want: &Want,
    pc: Option<&ParseCache>,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    match item {
        Input::Buffer(b) => search::search_bytes(m, b.to_vec(), want, ctl),
        Input::Path(p) => {
            // Only regular files (after symlinks): reading a FIFO or a device
            // could block forever or never end.
            let md = match std::fs::metadata(p) {
                Ok(md) => md,
                Err(e) => return (FileRecord::new(Status::ReadError, e.to_string()), None),
            };
            if !md.is_file() {
                return (
                    FileRecord::new(Status::ReadError, "not a regular file"),
                    None,
                );
            }
            if max > 0 && md.len() > max {
                return (
                    FileRecord::new(
                        Status::TooLarge,
                        format!(
                            "file is {} bytes, over the {max}-byte limit for AST search",
                            md.len()
                        ),
                    ),
                    None,
                );
            }
            if let Some(pc) = pc {
                return search_cached(pc, m, p, &md, want, ctl);
            }
            match std::fs::read(p) {
                Ok(data) => search::search_bytes(m, data, want, ctl),
                Err(e) => (FileRecord::new(Status::ReadError, e.to_string()), None),
            }
        }
    }
}

/// Searches a file through the parse cache: a cached tree (or a record
/// that the matcher's literal filter rules the file out) is used when the
/// file's stamp is unchanged; otherwise the file is read, and what the
/// search learns about it is stored.
fn search_cached(
    pc: &ParseCache,
    m: &Matcher,
    p: &std::path::Path,
    md: &std::fs::Metadata,
    want: &Want,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    let stamp = cache::Stamp::of(md);
    // What was asked for changes the record: part of the results' key.
    let key = m.result_key
        ^ (want.captures as u64)
        ^ ((want.edits as u64) << 1)
        ^ ((want.prefilter as u64) << 2);
    if let Some(rec) = pc.lookup_results(p, m.lang, &stamp, key) {
        return (FileRecord::clone(&rec), None);
    }
    let out = search_through_cache(pc, m, p, &stamp, want, ctl);
    if out.1.is_none() && out.0.status == Status::Searched {
        pc.store_results(p, m.lang, &stamp, key, &out.0);
    }
    out
}

/// search_cached without the results: the cached tree or filter record,
/// else the file read and parsed.
fn search_through_cache(
    pc: &ParseCache,
    m: &Matcher,
    p: &std::path::Path,
    stamp: &cache::Stamp,
    want: &Want,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    let stamp = *stamp;
    let filter = if want.prefilter { m.filter_key } else { 0 };
    let mut data = None;
    match pc.lookup(p, m.lang, &stamp, filter) {
        cache::Found::Miss => {}
        cache::Found::Skip => return (FileRecord::new(Status::Skipped, ""), None),
        cache::Found::Doc(doc) => return search_parsed(m, &doc, want, ctl),
        cache::Found::Verify(hash, doc, skip) => {
            let d = match std::fs::read(p) {
                Ok(d) => d,
                Err(e) => return (FileRecord::new(Status::ReadError, e.to_string()), None),
            };
            if cache::content_hash(&d) == hash {
                pc.confirm(p, m.lang, &stamp);
                if skip {
                    return (FileRecord::new(Status::Skipped, ""), None);
                }
                if let Some(doc) = doc {
                    return search_parsed(m, &doc, want, ctl);
                }
            }
            data = Some(d);
        }
    }
    let data = match data.map_or_else(|| std::fs::read(p), Ok) {
        Ok(d) => d,
        Err(e) => return (FileRecord::new(Status::ReadError, e.to_string()), None),
    };
    if want.prefilter && !m.may_match(&data) {
        pc.store_skip(p, m.lang, &stamp, filter, &data);
        return (FileRecord::new(Status::Skipped, ""), None);
    }
    let src = match search::decode_source(data) {
        Ok(s) => s,
        Err(rec) => return (rec, None),
    };
    match search::parse_source(m, src, ctl) {
        Ok(doc) => {
            let doc = std::sync::Arc::new(doc);
            let out = search::search_doc(m, &doc, want, ctl);
            pc.store_doc(p, m.lang, &stamp, doc);
            out
        }
        Err(fail) => fail,
    }
}

/// Searches a cached tree, applying the literal filter first as an
/// uncached search would.
fn search_parsed(
    m: &Matcher,
    doc: &cache::Doc,
    want: &Want,
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    if want.prefilter && !m.may_match(doc.get_text().as_bytes()) {
        return (FileRecord::new(Status::Skipped, ""), None);
    }
    search::search_doc(m, doc, want, ctl)
}

/// Frees a result buffer from gopi_ast_search. Null is ignored.
///
/// # Safety
/// `p`/`len` exactly as returned, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_buffer_free(p: *mut u8, len: usize) {
    guard(ptr::null_mut(), (), || {
        if !p.is_null() {
            drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, len)));
            crate::ffi::count_free();
        }
    })
}

/// A new parse cache holding at most `bytes` (0: off); free it with
/// gopi_ast_cache_free once no search or outline uses it.
#[no_mangle]
pub extern "C" fn gopi_ast_cache_new(bytes: u64) -> *mut ParseCache {
    guard(ptr::null_mut(), ptr::null_mut(), || {
        into_raw(ParseCache::new(
            usize::try_from(bytes).unwrap_or(usize::MAX),
        ))
    })
}

/// Frees a parse cache. Null is ignored.
///
/// # Safety
/// `c` null or from gopi_ast_cache_new, not yet freed, no longer in use.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_cache_free(c: *mut ParseCache) {
    guard(ptr::null_mut(), (), || free_boxed(c))
}

/// Sets a parse cache's byte budget (0: off, and emptied).
///
/// # Safety
/// `c` from gopi_ast_cache_new, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_cache_set_budget(c: *const ParseCache, bytes: u64) {
    guard(ptr::null_mut(), (), || {
        (*c).set_budget(usize::try_from(bytes).unwrap_or(usize::MAX))
    })
}

/// Drops a parse cache's entries for a path and everything under it
/// (`len` 0: all entries).
///
/// # Safety
/// `c` from gopi_ast_cache_new, not yet freed; `path` valid for `len`
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_cache_invalidate(
    c: *const ParseCache,
    path: *const u8,
    len: usize,
) {
    guard(ptr::null_mut(), (), || {
        (*c).invalidate(&encode::path_from_bytes(bytes(path, len)))
    })
}

/// Reads a parse cache's counters: entries, estimated bytes, hits and
/// misses (each pointer may be null).
///
/// # Safety
/// `c` from gopi_ast_cache_new, not yet freed; each other pointer null or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn gopi_ast_cache_stats(
    c: *const ParseCache,
    entries: *mut u64,
    bytes_held: *mut u64,
    hits: *mut u64,
    misses: *mut u64,
) {
    guard(ptr::null_mut(), (), || {
        let (e, b, h, m) = (*c).stats();
        for (p, v) in [
            (entries, e as u64),
            (bytes_held, b as u64),
            (hits, h),
            (misses, m),
        ] {
            if !p.is_null() {
                *p = v;
            }
        }
    })
}
