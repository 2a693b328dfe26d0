//! Huge pages for the engine's large tables (the search's and the mate solver's
//! transposition tables, a network's feature weights): on Linux the kernel is asked
//! (`madvise(MADV_HUGEPAGE)`) to back them with 2 MiB pages, so that a random probe
//! misses the TLB far less often. Where transparent huge pages are off, or on other
//! systems, nothing changes. Uses nothing else.

/// The huge page size of x86-64 and most aarch64 Linux systems.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Asks the kernel to back the 2 MiB-aligned part of `bytes` bytes from `start` with
/// huge pages. Call it before the memory is first written, so the pages are faulted
/// in huge; later the kernel's background collapse may still merge them.
pub fn advise(start: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        let first = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize).saturating_add(bytes) / HUGE_PAGE * HUGE_PAGE;
        if end > first {
            // SAFETY: [first, end) lies inside the caller's own allocation of `bytes`
            // bytes from `start`. MADV_HUGEPAGE changes only how the kernel backs those
            // pages, never their contents or the mapping's address, so no Rust reference
            // into the range is affected; a refusal (an error return) is harmless.
            // Measured: `hisha bench` with a HalfKP network, see docs/strength.md.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// A vector of `len` values made by `fill`, its memory advised to huge pages before it
/// is written; `None` when the allocator refuses the memory.
pub fn try_vec<T>(len: usize, fill: impl FnMut() -> T) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).ok()?;
    advise(v.as_ptr() as *const u8, len.saturating_mul(std::mem::size_of::<T>()));
    v.resize_with(len, fill);
    Some(v)
}
