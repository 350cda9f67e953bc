//! The `dice` scenario: one die against a target, attribute checks and keep
//! dice. Its declaration, parameters ([`DiceParams`]), metrics, rule (an
//! [`Outcomes`] over [`super`]'s dice laws) and builder. A child of
//! `dice.rs` rather than inside it: the dice laws are nearly 800 lines
//! already; so `ranged/scenario.rs` beside `ranged.rs` and
//! `close/scenario.rs` in `close/`.

use super::{
    Reading, attribute_check, keep_dist, keep_roll, p_attribute_check, p_meets, seven_plus,
};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::{MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `dice` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const DICE_SCENARIO: Scenario = Scenario {
    name: "dice",
    about: "one die against a target (7+ under both readings), attribute checks, keep dice NkM",
    seed_section: "Chapter 1: Target numbers; Rolling 6's; Rolling for 7+ targets; The Keep dice; Rolling attribute checks",
    params: DiceParams::decls,
    metrics: || DICE_METRICS.to_vec(),
    build: build_dice,
    variants: &["seven_plus"],
    test_points: &[
        &[("check", "die"), ("target", "7")],
        &[("check", "die"), ("target", "11")],
        &[("check", "attribute"), ("dice", "3"), ("target", "8")],
        &[
            ("check", "keep"),
            ("dice", "4"),
            ("keep", "3"),
            ("target", "16"),
        ],
        &[
            ("check", "keep"),
            ("dice", "3"),
            ("keep", "3"),
            ("target", "12"),
            ("explode", "false"),
        ],
    ],
    refusals: &[Refusal {
        what: "keeping more dice than are rolled",
        point: 0,
        set: &[("check", "keep"), ("dice", "3"), ("keep", "4")],
        unset: &[],
        field: "keep",
        words: &["keeps 4 of 3 dice"],
    }],
    naive: crate::systems::krygothic::naive::DICE,
};

const DICE: &str = "Chapter 1: Dice and their use";

crate::param_struct! {
    /// Parameters of the dice scenario.
    pub struct DiceParams {
        check: String = choice(&["die", "attribute", "keep"])
            .default("die")
            .about("die: one D6 against the target; attribute: the highest of `dice` D6; keep: roll `dice`, keep the best `keep`, sum")
            .seed(DICE),
        dice: i64 = int(0, 30)
            .default("1")
            .about("dice rolled (the attribute's number for a check)")
            .seed("Rolling attribute checks; The Keep dice"),
        keep: Opt<i64> = int(1, 30)
            .about("keep: dice kept (the number after the K); required for keep")
            .seed("The Keep dice"),
        target: Opt<i64> = int(-10, 60)
            .about("the target number (for keep: the total to reach); required except for keep")
            .seed("Target numbers; Rolling for 7+ targets"),
        explode: bool = flag()
            .default("true")
            .about("keep: sixes are re-rolled and added (a cumulative roll); the seed's 4K3 example keeps a 6 as 6")
            .seed("Rolling 6's; When a roll is not a target number"),
    }
}

const DICE_METRICS: [MetricDecl; 2] = [
    MetricDecl::probability(
        "p_pass",
        "P(pass)",
        "P(the target is met; for keep: the kept total reaches it)",
    ),
    MetricDecl::mean(
        "mean_total",
        "mean total",
        "keep: expected total of the kept dice",
    ),
];

enum DiceCheck {
    Die(i32),
    Attribute(u32, i32),
    Keep(u32, u32, Option<i32>, bool),
}

struct DiceRule {
    check: DiceCheck,
    reading: Reading,
    list: MetricList,
    pass: Option<Metric>,
    total: Option<Metric>,
}

impl Outcomes for DiceRule {
    type Out = (bool, i64);

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, d: &mut R) -> (bool, i64) {
        match self.check {
            DiceCheck::Die(t) => (attribute_check(d, 1, t, self.reading), 0),
            DiceCheck::Attribute(n, t) => (attribute_check(d, n, t, self.reading), 0),
            DiceCheck::Keep(n, k, t, e) => {
                let total = keep_roll(d, n, k, e);
                (t.is_some_and(|t| total >= i64::from(t)), total)
            }
        }
    }

    fn law(&self) -> Vec<((bool, i64), f64)> {
        match self.check {
            DiceCheck::Die(t) => {
                let p = p_meets(t, self.reading);
                vec![((true, 0), p), ((false, 0), 1.0 - p)]
            }
            DiceCheck::Attribute(n, t) => {
                let p = p_attribute_check(n, t, self.reading);
                vec![((true, 0), p), ((false, 0), 1.0 - p)]
            }
            DiceCheck::Keep(n, k, t, e) => keep_dist(n, k, e)
                .iter()
                .map(|(v, p)| ((t.is_some_and(|t| v >= i64::from(t)), v), p))
                .collect(),
        }
    }

    /// Pass or not, and the total (0 for the checks).
    fn slot(&self, o: &(bool, i64)) -> Option<usize> {
        usize::try_from(o.1)
            .ok()
            .map(|total| 2 * total + usize::from(o.0))
    }

    /// Up to a total of 4,095 (a larger total is hashed).
    fn slots(&self) -> usize {
        match self.check {
            DiceCheck::Keep(..) => 1 << 13,
            _ => 2,
        }
    }

    fn record(&self, o: &(bool, i64), sink: &mut impl MetricSink) {
        if let Some(m) = self.pass {
            sink.record(m, u64::from(o.0));
        }
        if let Some(m) = self.total {
            sink.record(m, o.1.max(0) as u64);
        }
    }
}

fn build_dice(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = DiceParams::read(p)?;
    let reading = seven_plus(v)?;
    let n = p.dice as u32;
    let check = match p.check.as_str() {
        "keep" => {
            let k = p.keep.need()? as u32;
            if k > n {
                return Err(ParamError::new(
                    p.keep.name(),
                    format!("keeps {k} of {n} dice: keep at most the dice rolled"),
                ));
            }
            let t = p.target.value.map(|t| t as i32);
            DiceCheck::Keep(n, k, t, p.explode)
        }
        "attribute" => DiceCheck::Attribute(n, p.target.need()? as i32),
        _ => DiceCheck::Die(p.target.need()? as i32),
    };
    let mut list = MetricList::new();
    let has_target = !matches!(check, DiceCheck::Keep(_, _, None, _));
    let pass = has_target.then(|| list.add(&DICE_METRICS[0]));
    let total = matches!(check, DiceCheck::Keep(..)).then(|| list.add(&DICE_METRICS[1]));
    Ok(Box::new(OutcomeModel::new(DiceRule {
        check,
        reading,
        list,
        pass,
        total,
    })))
}
