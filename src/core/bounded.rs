//! `BoundedVec`: a fixed-capacity list that lives on the stack, never allocates and
//! never initialises the slots it does not use (move lists and their scores are
//! built at every node, so a memset of the whole capacity would be paid each time).
//! Uses nothing else in the crate.

use std::mem::MaybeUninit;

/// A list of at most `N` copyable items; pushes beyond `N` are dropped (callers size
/// `N` above any proven maximum, the check only keeps a bug from writing out of bounds).
pub struct BoundedVec<T: Copy, const N: usize> {
    items: [MaybeUninit<T>; N],
    len: usize,
}

impl<T: Copy, const N: usize> Default for BoundedVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> BoundedVec<T, N> {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        // An array of `MaybeUninit` needs no initialisation; skipping the memset of the
        // whole capacity per node is measurable in perft. Written as an uninitialised
        // array (rather than `[MaybeUninit::uninit(); N]`, which this compiler turned into
        // a memset of the whole list in the quiescence search: 1,208 and 2,400 bytes a
        // node, 14% of the bench's instructions by callgrind).
        // SAFETY: an array of `MaybeUninit<T>` is valid in any state, initialised or not.
        let items = unsafe { MaybeUninit::<[MaybeUninit<T>; N]>::uninit().assume_init() };
        BoundedVec { items, len: 0 }
    }

    /// Appends an item (ignored when the list is full).
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        if self.len < N {
            self.items[self.len] = MaybeUninit::new(x);
            self.len += 1;
        }
    }

    /// Number of items.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes all items.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the first `n` items (all of them if there are fewer).
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }

    /// The items as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: slots 0..len were written by `push` (len never exceeds N) and `T` is
        // `Copy`, so reading them as `T` is sound.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const T, self.len) }
    }

    /// The items as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`; the borrow of `self` is exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut T, self.len) }
    }

    /// Iterates over the items.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }
}

impl<T: Copy + PartialEq, const N: usize> BoundedVec<T, N> {
    /// Whether `x` is in the list.
    pub fn contains(&self, x: T) -> bool {
        self.as_slice().contains(&x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pushes_past_capacity_are_dropped() {
        let mut v: BoundedVec<u8, 3> = BoundedVec::new();
        for i in 0..5 {
            v.push(i);
        }
        assert_eq!(v.as_slice(), &[0, 1, 2]);
        v.as_mut_slice().swap(0, 2);
        assert!(v.contains(2) && !v.contains(4));
        v.clear();
        assert!(v.is_empty());
    }
}
