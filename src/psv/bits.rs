//! The bit stream of a PackedSfen: 256 bits, each byte filled from its lowest bit up,
//! values written lowest bit first (YaneuraOu's `BitStream`).

/// Bits in a PackedSfen.
pub const BITS: usize = 256;

/// Writes bits into a zeroed 32-byte buffer.
pub struct BitWriter {
    data: [u8; 32],
    cursor: usize,
}

impl BitWriter {
    /// An empty stream.
    pub fn new() -> BitWriter {
        BitWriter { data: [0; 32], cursor: 0 }
    }

    /// Appends one bit; `false` when the 256 bits are used up.
    pub fn bit(&mut self, b: bool) -> bool {
        if self.cursor >= BITS {
            return false;
        }
        if b {
            self.data[self.cursor / 8] |= 1 << (self.cursor & 7);
        }
        self.cursor += 1;
        true
    }

    /// Appends the lowest `n` bits of `v`, lowest first; `false` on overflow.
    pub fn bits(&mut self, v: u32, n: u32) -> bool {
        (0..n).all(|i| self.bit(v >> i & 1 != 0))
    }

    /// Bits written so far.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// The 32 bytes.
    pub fn finish(self) -> [u8; 32] {
        self.data
    }
}

impl Default for BitWriter {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads bits from a 32-byte PackedSfen.
pub struct BitReader<'a> {
    data: &'a [u8; 32],
    cursor: usize,
}

impl<'a> BitReader<'a> {
    /// A reader at the first bit.
    pub fn new(data: &'a [u8; 32]) -> BitReader<'a> {
        BitReader { data, cursor: 0 }
    }

    /// The next bit, or `None` past the end.
    pub fn bit(&mut self) -> Option<bool> {
        if self.cursor >= BITS {
            return None;
        }
        let b = self.data[self.cursor / 8] >> (self.cursor & 7) & 1 != 0;
        self.cursor += 1;
        Some(b)
    }

    /// The next `n` bits as a number (first bit lowest), or `None` past the end.
    pub fn bits(&mut self, n: u32) -> Option<u32> {
        let mut v = 0;
        for i in 0..n {
            v |= (self.bit()? as u32) << i;
        }
        Some(v)
    }

    /// Bits read so far.
    pub fn cursor(&self) -> usize {
        self.cursor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_go_lowest_bit_first_into_lowest_bits() {
        let mut w = BitWriter::new();
        assert!(w.bit(false));
        assert!(w.bits(44, 7));
        assert!(w.bits(36, 7));
        let d = w.finish();
        // The start position's first bytes as cshogi writes them: 0x58 0xa4 ...
        assert_eq!(d[0], 0x58);
        assert_eq!(d[1] & 0x3f, 0xa4 & 0x3f);
        let mut r = BitReader::new(&d);
        assert_eq!(r.bit(), Some(false));
        assert_eq!(r.bits(7), Some(44));
        assert_eq!(r.bits(7), Some(36));
    }

    #[test]
    fn stream_ends_after_256_bits() {
        let mut w = BitWriter::new();
        assert!(w.bits(u32::MAX, 32));
        for _ in 0..7 {
            assert!(w.bits(0, 32));
        }
        assert_eq!(w.cursor(), 256);
        assert!(!w.bit(true));
        let d = [0u8; 32];
        let mut r = BitReader::new(&d);
        assert_eq!(r.bits(32).map(|_| ()), Some(()));
        for _ in 0..7 {
            assert!(r.bits(32).is_some());
        }
        assert_eq!(r.bit(), None);
    }
}
