//! The `stupidity` scenario: a Stupid warrior's turn out of hand-to-hand
//! combat (Psychology, Stupidity, "Movement"): the Leadership test, the D6
//! that stands it still or sends it off, and the Strength 3 hit of falling
//! off a Vehicle, the rule ([`Stupidity`]) with its declaration,
//! parameters ([`StupidityParams`]) and builder. The hit goes through the
//! warrior's own hit pipeline ([`Condition::take_hit`]: Wound Chart, save,
//! Damage, Injury Table), as shooting's and fire's hits do.

use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::gce::tables::leadership_test;
use crate::systems::gce::target::VictimParams;
use crate::systems::gce::warrior::{Condition, Damage, Hit, Status, WarriorStats};
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario,
};

/// The `stupidity` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const STUPIDITY_SCENARIO: Scenario = Scenario {
    name: "stupidity",
    about: "A Stupid warrior's turn: a Leadership test, else a D6 (1-3 stands still, 4+ wanders off; off a Vehicle: a S3 hit)",
    seed_section: "Stupidity",
    params: StupidityParams::decls,
    metrics: || STUPIDITY_METRICS.to_vec(),
    build: build_stupidity,
    variants: &[],
    test_points: &[
        // a Stupid Ork Boy (Ld 7, T4, W1) aboard a Trukk
        &[
            ("leadership", "7"),
            ("aboard", "true"),
            ("toughness", "4"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        // a Stupid Nob (Ld 8, T4, W2, 5+ save) on foot, Hated enemies in
        // sight
        &[
            ("leadership", "8"),
            ("hated_in_sight", "true"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("save", "5"),
            ("target_ws", "4"),
            ("target_bs", "4"),
        ],
        // a Stupid Grot (Ld 5, T3, W1, 6+ save) aboard
        &[
            ("leadership", "5"),
            ("aboard", "true"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("save", "6"),
            ("target_ws", "2"),
            ("target_bs", "3"),
        ],
    ],
    refusals: &[Refusal {
        what: "no Leadership to test",
        point: 0,
        set: &[],
        unset: &["leadership"],
        field: "leadership",
        words: &["missing"],
    }],
    naive: crate::systems::gce::naive::STUPIDITY,
};

crate::param_struct! {
    /// Parameters of the stupidity scenario.
    pub struct StupidityParams {
        leadership: i64 = int(1, 10)
            .required()
            .about("the warrior's Leadership (2D6 equal or under passes, 12 always fails)")
            .seed("Stupidity"),
        aboard: bool = flag()
            .about("the warrior starts aboard a Vehicle: wandering off, it falls off and takes a S3 hit")
            .seed("Stupidity, Movement"),
        frenzy: bool = flag()
            .about("the warrior is also Frenzied: it ignores Stupidity")
            .seed("Frenzy and Fear, Terror, Stupidity, or Hatred"),
        hated_in_sight: bool = flag()
            .about("Hated enemies are in Line Of Sight: the test is on Leadership 10")
            .seed("Leadership and hatred"),
        ..victim: VictimParams,
    }
}

fn build_stupidity(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = StupidityParams::read(p)?;
    let s = Stupidity {
        leadership: if p.hated_in_sight {
            10
        } else {
            p.leadership as u32
        },
        aboard: p.aboard,
        frenzy: p.frenzy,
        victim: p.victim.stats()?,
    };
    Ok(Box::new(StepModel::new(s.into_rule())))
}

/// Stupidity: "Warriors affected by Stupidity must pass a Leadership at the
/// start of each of their turns. If they pass then they manage to function
/// normally. If not they’re restricted to the following rules: Movement:
/// Roll a D6. On a 1 - 3 they do not move, on a 4+ they move their full
/// normal Movement in a random direction (roll a scatter dice). If they’re
/// on a Vehicle they fall off and take a S3 Hit and continue their move if
/// possible." "Frenzied Warriors ignore Fear, Terror, Stupidity, and
/// Hatred"; "If there are Hated enemies in Line Of Sight the affected
/// Warrior counts as having Leadership 10" (the builder passes 10).
#[derive(Clone, Debug)]
pub struct Stupidity {
    /// The Leadership tested.
    pub leadership: u32,
    /// It starts aboard a Vehicle.
    pub aboard: bool,
    /// Frenzied: Stupidity is ignored.
    pub frenzy: bool,
    /// The warrior, for the S3 hit.
    pub victim: WarriorStats,
}

/// A turn's outcome.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StupidState {
    failed: bool,
    wanders: bool,
    condition: Condition,
}

/// Every metric of the stupidity scenario.
pub const STUPIDITY_METRICS: [MetricDecl; 9] = [
    MetricDecl::probability(
        "p_stupid",
        "P(fails its Stupidity test)",
        "P(fails the Leadership test: restricted to the Stupidity rules this turn)",
    ),
    MetricDecl::probability(
        "p_stands_still",
        "P(stands still)",
        "P(fails the test and rolls 1-3: it does not move)",
    ),
    MetricDecl::probability(
        "p_wanders",
        "P(wanders off)",
        "P(fails the test and rolls 4+: its full Movement in a random direction)",
    ),
    MetricDecl::probability(
        "p_falls_off",
        "P(falls off the Vehicle)",
        "P(wanders off a Vehicle it was aboard: a S3 hit)",
    ),
    MetricDecl::probability(
        "p_wounded",
        "P(wounded)",
        "P(the S3 hit wounds and is not saved)",
    ),
    MetricDecl::probability(
        "p_flesh_wound",
        "P(Flesh Wound)",
        "P(on its feet with a Flesh Wound)",
    ),
    MetricDecl::probability("p_down", "P(Down)", "P(Down)"),
    MetricDecl::probability("p_out_of_action", "P(out of action)", "P(Out of Action)"),
    MetricDecl::probability(
        "p_pinned",
        "P(pinned)",
        "P(Pinned by the S3 hit: hit and neither Down nor Out of Action)",
    ),
];

/// The stupidity rule with its metric handles.
pub struct StupidityRule {
    rule: Stupidity,
    list: MetricList,
    /// Handles in the order of [`STUPIDITY_METRICS`].
    m: [Metric; 9],
}

impl Stupidity {
    /// The rule with its metric handles.
    pub fn into_rule(self) -> StupidityRule {
        let mut list = MetricList::new();
        let m = STUPIDITY_METRICS.map(|d| list.add(&d));
        StupidityRule {
            rule: self,
            list,
            m,
        }
    }
}

impl Mechanic for StupidityRule {
    type State = StupidState;

    fn start(&self) -> StupidState {
        StupidState {
            failed: false,
            wanders: false,
            condition: self.rule.victim.fresh(),
        }
    }

    /// The Leadership test, the D6, the S3 hit.
    fn steps(&self) -> usize {
        3
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut StupidState) {
        let r = &self.rule;
        match i {
            0 if !r.frenzy => s.failed = !leadership_test(dice, r.leadership),
            1 if s.failed => s.wanders = dice.d6() >= 4,
            2 if s.wanders && r.aboard => {
                // a Strength 3 hit (reading: the Armour Modifiers table's
                // 0 for Strength 3, a save allowed), 1 Damage
                let hit = Hit::by_strength(3, Damage::fixed(1));
                s.condition.take_hit(dice, &r.victim, &hit);
            }
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &StupidState, sink: &mut impl MetricSink) {
        let [
            stupid,
            still,
            wanders,
            falls_off,
            wounded,
            flesh,
            down,
            out,
            pinned,
        ] = self.m;
        let c = &s.condition;
        let fell = s.wanders && self.rule.aboard;
        let unhurt = c.status == Status::Standing && c.wounds_left == self.rule.victim.wounds;
        sink.record(stupid, u64::from(s.failed));
        sink.record(still, u64::from(s.failed && !s.wanders));
        sink.record(wanders, u64::from(s.wanders));
        sink.record(falls_off, u64::from(fell));
        sink.record(wounded, u64::from(!unhurt));
        sink.record(flesh, u64::from(c.status == Status::FleshWound));
        sink.record(down, u64::from(c.status == Status::Down));
        sink.record(out, u64::from(c.status == Status::OutOfAction));
        sink.record(
            pinned,
            u64::from(fell && !self.rule.victim.pin_immune && !c.is_down_or_out()),
        );
    }
}
