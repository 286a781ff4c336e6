//! The `gopi_ast_*` C functions (declared in `include/gopi_native.h`).
//! Every body runs under [`guard`], so a panic becomes an error value.
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
}

/// A cancel flag shared between Go and any number of running searches.
pub struct CancelFlag(AtomicBool);

/// Compiles `rules` for the language named `lang`. On failure returns null
/// with `*err_rule` = index of the failing rule (-1: not rule specific) and
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
/// `rule<TAB>root-kind<TAB>literal,literal...`. Free with gopi_string_free.
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
        let mut w = Writer::new(items.len());
        let mut stop: Option<Stop> = None;
        for item in &items {
            if stop.is_none() {
                stop = ctl.stopped();
            }
            let rec = if stop.is_some() {
                FileRecord::new(Status::Stopped, "")
            } else {
                let (rec, s) = search_one(m, item, opts.max_file_size, &want, &ctl);
                stop = s;
                rec
            };
            w.record(&rec);
        }
        let mut buf = w.buf.into_boxed_slice();
        *out_len = buf.len();
        *out = buf.as_mut_ptr();
        std::mem::forget(buf);
        crate::ffi::count_alloc();
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
    ctl: &Control,
) -> (FileRecord, Option<Stop>) {
    match item {
        Input::Buffer(b) => search::search_bytes(m, b.to_vec(), want, ctl),
        Input::Path(p) => {
            // Only regular files (after symlinks): reading a FIFO or a device
            // could block forever or never end.
            match std::fs::metadata(p) {
                Ok(md) if !md.is_file() => {
                    return (
                        FileRecord::new(Status::ReadError, "not a regular file"),
                        None,
                    )
                }
                Ok(md) if max > 0 && md.len() > max => {
                    return (
                        FileRecord::new(
                            Status::TooLarge,
                            format!(
                                "file is {} bytes, over the {max}-byte limit for AST search",
                                md.len()
                            ),
                        ),
                        None,
                    )
                }
                Ok(_) => {}
                Err(e) => return (FileRecord::new(Status::ReadError, e.to_string()), None),
            }
            match std::fs::read(p) {
                Ok(data) => search::search_bytes(m, data, want, ctl),
                Err(e) => (FileRecord::new(Status::ReadError, e.to_string()), None),
            }
        }
    }
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
