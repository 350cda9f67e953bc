//! The `radiation_burst` scenario: one turn near a star whose celestial
//! phenomena include radiation bursts, and a ship's Leadership test that
//! turn. Its parameters, the rule ([`RadiationBursts`], a [`Mechanic`]:
//! the burst dice, each burst's interference, the test) and its builder,
//! in one module named after it.
//!
//! RADIATION BURSTS, Effects: "Roll a D6 at the start of each turn. If more
//! than one radiation burst was generated as part of the celestial
//! phenomena, roll a D6 for each one generated. For each roll of 5 or 6 a
//! radiation burst occurs. Roll a D6 to see what the interference level of
//! the burst is and all ships on the table reduce their Leadership value by
//! the interference level for that turn. For example, if a radiation burst
//! occurs and a 3 is rolled for the interference level, all ships suffer -3
//! to their Leadership for the rest of the turn."
//!
//! The Fleet Commanders' re-rolls ("may only use their re-rolls for Command
//! checks for their own ship or squadron during radiation bursts") are not
//! here: no BFG scenario spends a re-roll.

use super::mechanics::Pool;
use super::tables::leadership_test;
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario, Variant,
};

/// The `radiation_burst` scenario: what it asks, its parameters and
/// metrics, its builder, test points, bad inputs and naive loop.
pub const RADIATION_BURST_SCENARIO: Scenario = Scenario {
    name: "radiation_burst",
    about: "a turn of radiation bursts: the interference taken off Leadership and P(a Leadership test passes)",
    seed_section: "RADIATION BURSTS",
    params: BurstParams::decls,
    metrics: || METRICS.to_vec(),
    build: build_radiation_burst,
    variants: &["burst_interference"],
    test_points: &[
        &[("leadership", "8"), ("bursts", "2")],
        &[("leadership", "9"), ("test_dice", "3")],
        &[("leadership", "10"), ("bursts", "3"), ("test_dice", "1")],
    ],
    refusals: &[
        Refusal {
            what: "no Leadership",
            point: 0,
            set: &[],
            unset: &["leadership"],
            field: "leadership",
            words: &["missing", "set leadership"],
        },
        Refusal {
            what: "a Leadership test on four dice",
            point: 0,
            set: &[("test_dice", "4")],
            unset: &[],
            field: "test_dice",
            words: &["from 1 to 3"],
        },
        Refusal {
            what: "no bursts generated",
            point: 0,
            set: &[("bursts", "0")],
            unset: &[],
            field: "bursts",
            words: &["from 1 to 6"],
        },
    ],
    naive: super::naive::RADIATION_BURST,
};

const BURSTS: &str = "RADIATION BURSTS";

crate::param_struct! {
    /// Parameters of the radiation burst scenario.
    struct BurstParams {
        leadership: i64 = int(1, 12)
            .required()
            .about("the ship's Leadership before interference")
            .seed(BURSTS),
        bursts: i64 = int(1, 6)
            .default("1")
            .about("radiation bursts generated with the celestial phenomena (a D6 each per turn)")
            .seed(BURSTS),
        test_dice: i64 = int(1, 3)
            .default("2")
            .about("dice of the Leadership test taken that turn (2D6; 1D6 or 3D6 for a ram, 3D6 for a warp rift)")
            .seed(BURSTS),
    }
}

crate::variant_enum! {
    /// Two or more bursts in one turn (the variant `burst_interference`).
    pub enum BurstInterference = "burst_interference" {
        /// Each burst takes its own interference level off Leadership:
        /// "For each roll of 5 or 6 a radiation burst occurs. Roll a D6 to
        /// see what the interference level of the burst is and all ships
        /// ... reduce their Leadership value by the interference level".
        Sum = "sum",
        /// Only the worst burst counts: the levels do not add up.
        Highest = "highest",
    }
    about: "Two or more radiation bursts in a turn: each burst's interference comes off Leadership ('sum', \"For each roll of 5 or 6 a radiation burst occurs ... reduce their Leadership value by the interference level\"), or only the highest level does ('highest')",
}

/// The radiation burst scenario's metrics.
pub const METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_burst",
        "P(a radiation burst)",
        "P(at least one burst occurs this turn, 5 or 6 on a burst's D6)",
    ),
    MetricDecl::mean(
        "mean_interference",
        "mean interference",
        "expected Leadership lost to interference this turn",
    ),
    MetricDecl::probability(
        "p_pass",
        "P(passes the Leadership test)",
        "P(a Leadership test taken this turn passes, against Leadership less the interference)",
    ),
    MetricDecl::probability(
        "interference={k}",
        "P(interference {k})",
        "P(the interference this turn is exactly k), k = 0 to 6 per burst",
    ),
    MetricDecl::probability(
        "p_pass_with_interference_{k}",
        "P(passes with interference {k})",
        "P(the interference is exactly k and the test passes); divided by interference=k, P(pass) at that level",
    ),
];

/// A turn of radiation bursts and one Leadership test.
#[derive(Clone, Debug)]
pub struct RadiationBursts {
    bursts: u32,
    leadership: i32,
    test_dice: u32,
    interference: BurstInterference,
    /// `occur[k]`: the 5s and 6s among `k` burst dice.
    occur: Pool,
    list: MetricList,
    m: [Metric; 3],
    levels: Vec<Metric>,
    passed_at: Vec<Metric>,
}

/// The turn so far.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BurstState {
    /// Bursts that occurred.
    occurred: u8,
    /// Interference so far.
    interference: u8,
    passed: bool,
}

impl Mechanic for RadiationBursts {
    type State = BurstState;

    fn start(&self) -> BurstState {
        BurstState {
            occurred: 0,
            interference: 0,
            passed: false,
        }
    }

    /// The burst dice, one interference D6 per burst that could occur, the
    /// test.
    fn steps(&self) -> usize {
        self.bursts as usize + 2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut BurstState) {
        let last = self.bursts as usize + 1;
        if i == 0 {
            s.occurred = self.occur.roll(dice) as u8;
        } else if i < last {
            if i <= usize::from(s.occurred) {
                let level = dice.d6() as u8;
                s.interference = match self.interference {
                    BurstInterference::Sum => s.interference + level,
                    BurstInterference::Highest => s.interference.max(level),
                };
            }
        } else {
            let leadership = self.leadership - i32::from(s.interference);
            s.passed = leadership_test(dice, self.test_dice, leadership);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &BurstState, sink: &mut impl MetricSink) {
        let [burst, mean, pass] = self.m;
        sink.record(burst, u64::from(s.occurred > 0));
        sink.record(mean, u64::from(s.interference));
        sink.record(pass, u64::from(s.passed));
        let k = usize::from(s.interference);
        sink.record(self.levels[k], 1);
        sink.record(self.passed_at[k], u64::from(s.passed));
    }
}

fn build_radiation_burst(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = BurstParams::read(p)?;
    let interference = BurstInterference::read(v)?;
    let bursts = p.bursts as u32;
    let most = match interference {
        BurstInterference::Sum => 6 * bursts,
        BurstInterference::Highest => 6,
    };
    let mut list = MetricList::new();
    let m = [&METRICS[0], &METRICS[1], &METRICS[2]].map(|d| list.add(d));
    let levels = list.family(&METRICS[3], 0..=most);
    let passed_at = list.family(&METRICS[4], 0..=most);
    let rule = RadiationBursts {
        bursts,
        leadership: p.leadership as i32,
        test_dice: p.test_dice as u32,
        interference,
        occur: Pool::new(bursts, 5),
        list,
        m,
        levels,
        passed_at,
    };
    Ok(Box::new(StepModel::new(rule)))
}

#[cfg(test)]
mod tests {
    use crate::systems::{Params, seed_text, testing};

    fn exact(pairs: &[(&str, &str)], variants: &[(&str, &str)], metric: &str) -> f64 {
        let m = super::super::RULES
            .build(
                "radiation_burst",
                &Params::from_pairs(pairs),
                &Params::from_pairs(variants),
            )
            .unwrap();
        testing::exact(m.as_ref(), metric)
    }

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} against {b}");
    }

    /// 2D6 totals of `t` or less, out of 36.
    fn two_d6_at_most(t: i32) -> f64 {
        [0, 0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36][t.clamp(0, 12) as usize] as f64
    }

    /// RADIATION BURSTS' example: "if a radiation burst occurs and a 3 is
    /// rolled for the interference level, all ships suffer -3 to their
    /// Leadership for the rest of the turn." One burst, Leadership 8: the
    /// interference is 3 with chance 1/3 x 1/6 = 1/18, and then the test is
    /// against 5: 2D6 of 5 or less, 10/36. So P(interference 3) = 1/18 and
    /// P(interference 3 and pass) = 1/18 x 10/36 = 10/648.
    #[test]
    fn minus_three_example() {
        if seed_text::available(seed_text::BFG) {
            let text = seed_text::seed(seed_text::BFG);
            assert!(text.contains("if a radiation burst occurs and a 3 is rolled for the interference level, all ships suffer -3 to their Leadership for the rest of the turn."));
        }
        let p = [("leadership", "8")];
        close(exact(&p, &[], "interference=3"), 1.0 / 18.0);
        close(exact(&p, &[], "p_pass_with_interference_3"), 10.0 / 648.0);
        // no burst (2/3): the test is against 8 untouched, 26/36
        close(exact(&p, &[], "interference=0"), 2.0 / 3.0);
        close(
            exact(&p, &[], "p_pass_with_interference_0"),
            2.0 / 3.0 * 26.0 / 36.0,
        );
    }

    /// "For each roll of 5 or 6 a radiation burst occurs. Roll a D6 to see
    /// what the interference level of the burst is": one burst at
    /// Leadership 8, P(pass) = 2/3 x 26/36 + 1/3 x 1/6 x (21 + 15 + 10 +
    /// 6 + 3 + 1)/36 = 368/648 = 46/81; mean interference 1/3 x 7/2 = 7/6.
    /// Two bursts: P(a burst) = 1 - (2/3)^2 = 5/9, mean interference 7/3
    /// when the levels add; each of the 36 level pairs of two bursts
    /// (1/9) counted by hand against 2D6 below.
    #[test]
    fn pass_by_hand() {
        let one = [("leadership", "8")];
        close(exact(&one, &[], "p_pass"), 46.0 / 81.0);
        close(exact(&one, &[], "mean_interference"), 7.0 / 6.0);
        let two = [("leadership", "8"), ("bursts", "2")];
        close(exact(&two, &[], "p_burst"), 5.0 / 9.0);
        close(exact(&two, &[], "mean_interference"), 7.0 / 3.0);
        // P(pass): no burst 4/9; exactly one 4/9 (level a); both 1/9 (a, b).
        let single: f64 = (1..=6).map(|a| two_d6_at_most(8 - a)).sum::<f64>() / 6.0;
        let mut both_sum = 0.0;
        let mut both_max = 0.0;
        for a in 1..=6 {
            for b in 1..=6 {
                both_sum += two_d6_at_most(8 - a - b) / 36.0;
                both_max += two_d6_at_most(8 - a.max(b)) / 36.0;
            }
        }
        let by_hand = |both: f64| (4.0 / 9.0 * 26.0 + 4.0 / 9.0 * single + 1.0 / 9.0 * both) / 36.0;
        close(exact(&two, &[], "p_pass"), by_hand(both_sum));
        let highest = [("burst_interference", "highest")];
        close(exact(&two, &highest, "p_pass"), by_hand(both_max));
        // one burst reads the same under both
        close(exact(&one, &highest, "p_pass"), 46.0 / 81.0);
    }
}
