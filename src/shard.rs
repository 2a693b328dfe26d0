//! `--shard i/n`: a deterministic share of a batch (item `k` belongs to shard `k % n`),
//! so that `n` runs with `i = 0..n-1` together do exactly the work of one run. Used by
//! `hisha analyse` (games), `hisha mate --file` (problems) and `hisha gensfen` (games).

/// One shard of `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, `0..count`.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Shard {
    /// The whole batch.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `i/n` (0 <= i < n <= 1,000,000).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or_else(|| format!("shard '{s}': expected i/n, e.g. 0/4"))?;
        let index: usize = i.trim().parse().map_err(|_| format!("shard '{s}': bad index"))?;
        let count: usize = n.trim().parse().map_err(|_| format!("shard '{s}': bad count"))?;
        if count == 0 || count > 1_000_000 || index >= count {
            return Err(format!("shard '{s}': need 0 <= i < n <= 1000000"));
        }
        Ok(Shard { index, count })
    }

    /// Whether item `k` (0-based, in the batch's fixed order) is this shard's.
    pub fn owns(&self, k: usize) -> bool {
        k % self.count == self.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_items() {
        let shards: Vec<Shard> = (0..3).map(|i| Shard::parse(&format!("{i}/3")).unwrap()).collect();
        for k in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.owns(k)).count(), 1);
        }
        assert!(Shard::parse("3/3").is_err());
        assert!(Shard::parse("0/0").is_err());
        assert!(Shard::parse("x").is_err());
        assert!(Shard::ALL.owns(7));
        assert_eq!(Shard::parse("0/1"), Ok(Shard::ALL));
        assert_eq!(Shard::parse("3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["1/1", "2", "-1/3", "x/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
