//! Shared plumbing of the `gopi_` C ABI.
//!
//! Every `gopi_` function runs its body under [`guard`], so a Rust panic is
//! turned into an error value instead of unwinding into Go (which would be
//! undefined behaviour). Every object or string we hand to C is counted in a
//! process-wide live-object counter so tests can prove that each allocation
//! is freed exactly once.
use std::ffi::{c_char, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicI64, Ordering};

/// Number of `gopi_` objects and strings currently owned by C callers.
static LIVE_OBJECTS: AtomicI64 = AtomicI64::new(0);

/// Records that one object was handed to C.
pub(crate) fn count_alloc() {
    LIVE_OBJECTS.fetch_add(1, Ordering::Relaxed);
}

/// Records that one object handed to C was given back and dropped.
pub(crate) fn count_free() {
    LIVE_OBJECTS.fetch_sub(1, Ordering::Relaxed);
}

/// Moves `value` to the heap, counts it, and returns the raw pointer that C
/// now owns; it must come back through [`free_boxed`].
pub(crate) fn into_raw<T>(value: T) -> *mut T {
    count_alloc();
    Box::into_raw(Box::new(value))
}

/// Drops an object created by [`into_raw`]. Null is ignored.
///
/// # Safety
/// `p` must be null or come from `into_raw::<T>` and not have been freed.
pub(crate) unsafe fn free_boxed<T>(p: *mut T) {
    if !p.is_null() {
        drop(Box::from_raw(p));
        count_free();
    }
}

/// Returns a C string copy of `s` (interior NULs are replaced) that the C
/// caller owns and must release with `gopi_string_free`.
pub(crate) fn c_string(s: &str) -> *mut c_char {
    let c = CString::new(s.replace('\0', "\\0")).unwrap_or_default();
    count_alloc();
    c.into_raw()
}

/// Stores a new C string for `msg` in `*out` when `out` is not null.
///
/// # Safety
/// `out` must be null or valid for one pointer write.
pub(crate) unsafe fn set_message(out: *mut *mut c_char, msg: &str) {
    if !out.is_null() {
        *out = c_string(msg);
    }
}

/// Views `len` bytes at `p` as a slice; a null pointer or zero length yields
/// the empty slice (building a slice from null is undefined behaviour).
///
/// # Safety
/// When `len > 0`, `p` must point to `len` readable bytes that outlive `'a`.
pub(crate) unsafe fn bytes<'a>(p: *const u8, len: usize) -> &'a [u8] {
    if p.is_null() || len == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, len)
    }
}

/// Runs `body`, converting a panic into `on_panic` plus a message in `*err`
/// (when `err` is not null). This is the only way a `gopi_` body may run.
pub(crate) fn guard<T>(err: *mut *mut c_char, on_panic: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(v) => v,
        Err(payload) => {
            let what = if let Some(s) = payload.downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                "unknown panic payload".to_string()
            };
            // The message allocation itself must not unwind out of here.
            let _ = catch_unwind(AssertUnwindSafe(|| unsafe {
                set_message(
                    err,
                    &format!("internal error: native code panicked: {what}"),
                )
            }));
            on_panic
        }
    }
}

/// Returns how many `gopi_` objects and strings are currently live.
#[no_mangle]
pub extern "C" fn gopi_native_live_objects() -> i64 {
    LIVE_OBJECTS.load(Ordering::Relaxed)
}

/// Frees a string returned by a `gopi_` function. Null is ignored.
///
/// # Safety
/// `s` must be null or a string from this library not yet freed.
#[no_mangle]
pub unsafe extern "C" fn gopi_string_free(s: *mut c_char) {
    guard(ptr::null_mut(), (), || {
        if !s.is_null() {
            drop(CString::from_raw(s));
            count_free();
        }
    })
}

/// Panics on purpose inside the guard and returns -1 with the message in
/// `*err`: lets tests prove panics never cross the C boundary.
///
/// # Safety
/// `err` must be null or valid for one pointer write.
#[no_mangle]
pub unsafe extern "C" fn gopi_native_test_panic(err: *mut *mut c_char) -> i32 {
    guard(err, -1, || {
        let v: Vec<u8> = Vec::new();
        // An out-of-bounds index: a real panic, not an explicit panic! call,
        // so the test covers the path bugs would take.
        i32::from(v[std::hint::black_box(3)])
    })
}
