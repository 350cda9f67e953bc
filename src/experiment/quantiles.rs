//! A quantile of a distribution family as a metric an `[[expect]]` can
//! pin: `median(hits)`, `p90(turns)` (`pN` for N from 1 to 99), "the most
//! hits a shooter gets at least half the time" as every report's family
//! section shows it ([`quantile`]: the largest `k` with
//! P(X >= k) >= 1 - q).
//!
//! A quantile is not a sum over trials, so it is no column of the tally;
//! it is read off the family's `X>=k` tails, which are. Exact: the tails'
//! exact values give it. Monte Carlo: "the q-quantile is k" holds when
//! P(X >= k) >= 1 - q and P(X >= k + 1) < 1 - q, each a statement about
//! one tail's probability, so each gets a one-sided exact binomial test
//! against 1 - q and the smaller p-value, doubled (Bonferroni over the
//! two), is the check's. At the boundary of either statement the test has
//! its size, so a rule that has not moved fails no more often than any
//! other Monte Carlo check.

use crate::systems::MetricDef;
use statrs::distribution::{Binomial, DiscreteCDF};

/// Where a quantile of a family lies among the values listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantile {
    /// At this value.
    At(i64),
    /// Below the first value listed (a family that holds little of the
    /// mass: "0 when it does not win").
    Below(i64),
    /// Above the last value listed.
    Above(i64),
}

impl std::fmt::Display for Quantile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Quantile::At(k) => write!(f, "{k}"),
            Quantile::Below(k) => write!(f, "below {k}"),
            Quantile::Above(k) => write!(f, "more than {k}"),
        }
    }
}

/// The `q`-quantile of a family (`q` = 0.5 the median, 0.9 the 90th
/// percentile), read off its at-least curve: the largest `k` with
/// P(X >= k) >= 1 - q, "the most you get at least half the time" (the
/// upper quantile: for 0.5/0.3/0.2 the median is 1, the 90th percentile
/// 2). `at_least[i]` is P(X >= ks[i]), `ks` ascending and without gaps;
/// `above_last` P(X > last k) (P(>= last) less P(= last)). Mass in no
/// member counts as below the first value.
pub fn quantile(ks: &[i64], at_least: &[f64], above_last: f64, q: f64) -> Quantile {
    // an exact sum can land a rounding step below 1 - q
    let need = 1.0 - q - 1e-12;
    let first = ks.first().copied().unwrap_or(0);
    match at_least.iter().rposition(|&p| p >= need) {
        None => Quantile::Below(first),
        Some(i) if i + 1 == ks.len() && above_last >= need => Quantile::Above(ks[i]),
        Some(i) => Quantile::At(ks[i]),
    }
}

/// A quantile named as a metric.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantileOf {
    /// The family's name before `={k}` (`hits`).
    pub head: String,
    /// The quantile in percent (50 the median).
    pub percent: u32,
}

impl QuantileOf {
    /// `median(hits)` or `p90(hits)`; `None` for any other metric name.
    pub fn parse(metric: &str) -> Option<QuantileOf> {
        let (what, rest) = metric.split_once('(')?;
        let head = rest.strip_suffix(')')?;
        if head.is_empty() || !head.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        let percent = match what {
            "median" => 50,
            _ => {
                let digits = what.strip_prefix('p')?;
                if digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
                    return None;
                }
                digits.parse().ok()?
            }
        };
        Some(QuantileOf {
            head: head.to_string(),
            percent,
        })
    }

    /// The quantile as a fraction (0.5 the median).
    pub fn q(&self) -> f64 {
        f64::from(self.percent) / 100.0
    }

    /// What a report calls it: "median hits", "90th percentile of hits".
    pub fn describe(&self) -> String {
        let of = self.head.replace('_', " ");
        match self.percent {
            50 => format!("median {of}"),
            p => format!("{p}{} percentile of {of}", ordinal_suffix(p)),
        }
    }
}

fn ordinal_suffix(n: u32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

/// Where a model keeps a family's tails: the `head>=k` metrics by `k`
/// ascending, and the leftover `head>K` beyond the last, if it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Tails {
    /// `(k, index of head>=k)`, `k` ascending.
    pub at_least: Vec<(i64, usize)>,
    /// The index of `head>K` (mass beyond the last `k`).
    pub beyond: Option<usize>,
}

impl Tails {
    /// The family `head`'s tails among a model's metrics (those
    /// [`at_least::with_at_least`] added), or `None` where it has none.
    pub fn of(metrics: &[MetricDef], head: &str) -> Option<Tails> {
        let after = |m: &MetricDef, op: &str| -> Option<i64> {
            m.name.strip_prefix(head)?.strip_prefix(op)?.parse().ok()
        };
        let mut at_least: Vec<(i64, usize)> = metrics
            .iter()
            .enumerate()
            .filter(|(_, m)| m.declared_as.ends_with(">={k}"))
            .filter_map(|(i, m)| after(m, ">=").map(|k| (k, i)))
            .collect();
        if at_least.is_empty() {
            return None;
        }
        at_least.sort_unstable();
        let beyond = metrics
            .iter()
            .position(|m| m.declared_as.ends_with(">{k}") && after(m, ">").is_some());
        Some(Tails { at_least, beyond })
    }

    /// The values of `k` the family takes, ascending.
    pub fn ks(&self) -> Vec<i64> {
        self.at_least.iter().map(|&(k, _)| k).collect()
    }

    /// The `q`-quantile from per-metric values (exact probabilities or
    /// Monte Carlo estimates).
    pub fn quantile(&self, values: &[f64], q: f64) -> Quantile {
        let tail: Vec<f64> = self.at_least.iter().map(|&(_, i)| values[i]).collect();
        let above_last = self.beyond.map_or(0.0, |i| values[i]);
        quantile(&self.ks(), &tail, above_last, q)
    }

    /// The trials (of `counts`, per metric) with X >= k, for any `k`: the
    /// tail of the first value listed at or above it, the leftover beyond
    /// the last, else none.
    pub fn count_at_least(&self, counts: &[u64], k: i64) -> u64 {
        match self.at_least.iter().find(|&&(at, _)| at >= k) {
            Some(&(_, i)) => counts[i],
            None => self.beyond.map_or(0, |i| counts[i]),
        }
    }
}

/// The p-value of "the `q`-quantile is `k`" from Monte Carlo counts:
/// `at_k` of `n` trials reached at least `k`, `above_k` reached at least
/// `k + 1` (see the module).
pub fn quantile_p(at_k: u64, above_k: u64, n: u64, q: f64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let need = (1.0 - q).clamp(0.0, 1.0);
    let Ok(law) = Binomial::new(need, n) else {
        return 1.0;
    };
    // P(X >= k) < 1 - q is shown by few trials reaching k ...
    let too_few = law.cdf(at_k);
    // ... P(X >= k + 1) >= 1 - q by many reaching k + 1
    let too_many = if above_k == 0 {
        1.0
    } else {
        law.sf(above_k - 1)
    };
    (2.0 * too_few.min(too_many)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::MetricKind;

    #[test]
    fn quantile_names_read_and_refuse() {
        let q = QuantileOf::parse("median(hits)").unwrap();
        assert_eq!((q.head.as_str(), q.percent), ("hits", 50));
        assert_eq!(QuantileOf::parse("p90(turns)").unwrap().percent, 90);
        assert_eq!(QuantileOf::parse("p5(wounds_lost)").unwrap().percent, 5);
        for not in [
            "hits",
            "median()",
            "p0(hits)",
            "p100(hits)",
            "p05(hits)",
            "p90(hits>=1)",
            "mean(hits)",
            "median(hits",
        ] {
            assert_eq!(QuantileOf::parse(not), None, "{not}");
        }
        assert_eq!(q.describe(), "median hits");
        let p = |n: u32| QuantileOf {
            head: "turns_taken".into(),
            percent: n,
        };
        assert_eq!(p(90).describe(), "90th percentile of turns taken");
        assert_eq!(p(1).describe(), "1st percentile of turns taken");
        assert_eq!(p(12).describe(), "12th percentile of turns taken");
        assert_eq!(p(22).describe(), "22nd percentile of turns taken");
    }

    fn def(name: &str, declared_as: &'static str) -> MetricDef {
        MetricDef {
            name: name.into(),
            label: String::new(),
            kind: MetricKind::Probability,
            about: "",
            declared_as,
            yes_no: false,
        }
    }

    /// turns 1..=3 with a leftover beyond 3: P(= k) 0.2/0.3/0.1, P(> 3)
    /// 0.4, so P(>= k) 1.0/0.8/0.5 and the median is 3, the 90th
    /// percentile "more than 3", the 10th 1.
    #[test]
    fn tails_of_a_family_with_a_leftover_by_hand() {
        let metrics = [
            def("turns=1", "turns={k}"),
            def("turns=2", "turns={k}"),
            def("turns=3", "turns={k}"),
            def("turns>3", "turns>{k}"),
            def("turns>=3", "turns>={k}"),
            def("turns>=1", "turns>={k}"),
            def("turns>=2", "turns>={k}"),
            def("hits>=0", "hits>={k}"),
        ];
        let tails = Tails::of(&metrics, "turns").unwrap();
        assert_eq!(tails.at_least, [(1, 5), (2, 6), (3, 4)]);
        assert_eq!(tails.beyond, Some(3));
        let values = [0.2, 0.3, 0.1, 0.4, 0.5, 1.0, 0.8, 1.0];
        assert_eq!(tails.quantile(&values, 0.5), Quantile::At(3));
        assert_eq!(tails.quantile(&values, 0.9), Quantile::Above(3));
        assert_eq!(tails.quantile(&values, 0.1), Quantile::At(1));
        let counts = [20, 30, 10, 40, 50, 100, 80, 100];
        assert_eq!(tails.count_at_least(&counts, 0), 100);
        assert_eq!(tails.count_at_least(&counts, 2), 80);
        assert_eq!(tails.count_at_least(&counts, 4), 40);
        assert_eq!(Tails::of(&metrics, "wounds"), None);
    }

    /// The test's p-value by hand: 10 trials, median (1 - q = 0.5).
    /// Reaching k in 2 of 10: P(Bin(10, 1/2) <= 2) = 56/1024; reaching
    /// k + 1 in 9 of 10: P(Bin >= 9) = 11/1024.
    #[test]
    fn quantile_p_by_hand() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(quantile_p(2, 0, 10, 0.5), 2.0 * 56.0 / 1024.0));
        assert!(close(quantile_p(10, 9, 10, 0.5), 2.0 * 11.0 / 1024.0));
        // both halves comfortable: capped at 1
        assert_eq!(quantile_p(6, 4, 10, 0.5), 1.0);
        assert_eq!(quantile_p(0, 0, 0, 0.5), 1.0);
    }
}
