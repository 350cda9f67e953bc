//! The `edge` scenario: a warrior on foot Pinned, or gone Down, within 2"
//! of a drop ("Falling Due to Pinning"; Injuries, "Down"), the rule
//! ([`Edge`]) with its declaration, parameters ([`EdgeParams`]) and
//! builder. A failed Initiative test is resolved as Fall Damage by the fall
//! rule itself ([`super::FallRule`], its steps and metrics), not a copy.

use super::{Fall, FallRule, FallState};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::gce::tables::initiative_test;
use crate::systems::gce::target::VictimParams;
use crate::systems::gce::warrior::{Condition, Status};
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario,
};

/// The `edge` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const EDGE_SCENARIO: Scenario = Scenario {
    name: "edge",
    about: "Pinned or Down within 2\" of a drop: an Initiative test, else it falls (Fall Damage)",
    seed_section: "Falling Due to Pinning",
    params: EdgeParams::decls,
    metrics: edge_metric_catalog,
    build: build_edge,
    variants: &[],
    test_points: &[
        // Pinned at the edge of a 4" drop, Initiative 3
        &[
            ("height", "4"),
            ("initiative", "3"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        // gone Down at the edge of a 7" drop onto a warrior, Initiative 2
        &[
            ("height", "7"),
            ("initiative", "2"),
            ("down", "true"),
            ("toughness", "4"),
            ("wounds", "2"),
            ("target_ws", "4"),
            ("target_bs", "3"),
            ("lands_on_warrior", "true"),
        ],
        // Pinned over a 10" drop: a fall takes it Out of Action
        &[
            ("height", "10"),
            ("initiative", "4"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "2"),
            ("target_bs", "2"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "no Initiative to test",
            point: 0,
            set: &[],
            unset: &["initiative"],
            field: "initiative",
            words: &["missing"],
        },
        Refusal {
            what: "an Initiative of 0",
            point: 0,
            set: &[("initiative", "0")],
            unset: &[],
            field: "initiative",
            words: &["0 is impossible", "from 1 to 10"],
        },
    ],
    naive: crate::systems::gce::naive::EDGE,
};

crate::param_struct! {
    /// Parameters of the edge scenario.
    pub struct EdgeParams {
        ..victim: VictimParams,
        height: f64 = real(0.0, 100.0)
            .required()
            .about("inches of the drop within 2\" of the warrior (the fall if it goes over)")
            .seed("Falling Due to Pinning"),
        initiative: i64 = int(1, 10)
            .required()
            .about("the warrior's Initiative (a D6 equal or under passes, a 6 always fails)")
            .seed("Falling Due to Pinning"),
        down: bool = flag()
            .about("the warrior went Down there (it falls Down, and the fall's Wounds roll again on the Injury Table); absent: it was Pinned there")
            .seed("Injuries, Down"),
        lands_on_warrior: bool = flag()
            .about("a fall lands on another warrior (4+: the same damage)")
            .seed("Fall Damage"),
    }
}

fn build_edge(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = EdgeParams::read(p)?;
    let edge = Edge {
        initiative: p.initiative as u32,
        down: p.down,
        fall: Fall {
            height: p.height,
            victim: p.victim.stats()?,
            lands_on_warrior: p.lands_on_warrior,
        },
    };
    Ok(Box::new(StepModel::new(edge.into_rule())))
}

/// "Falling Due to Pinning": "If a Warrior on foot (not embarked on a
/// Vehicle) becomes Pinned within 2” of a drop, such as a big hole, then
/// they must pass an Initiative test (roll a D6 – the Warrior needs equal
/// or under their Initiative characteristic). If they fail then they fall
/// over the edge! See the Fall Damage rules". Injuries, Down: "If a Warrior
/// is on foot (i.e. not embarked on a Vehicle) and goes Down within 2” of a
/// drop then they may fall. The Warrior must pass an Initiative test or
/// will fall and take damage as described in the Fall Damage section".
#[derive(Clone, Debug)]
pub struct Edge {
    /// The warrior's Initiative.
    pub initiative: u32,
    /// It went Down at the edge (else it was Pinned there).
    pub down: bool,
    /// The fall if it goes over: the drop's height, the warrior, whether it
    /// lands on a warrior.
    pub fall: Fall,
}

/// The outcome: whether the warrior went over, and the fall's.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EdgeState {
    fell: bool,
    fall: FallState,
}

/// The edge's own metric (the fall's follow it).
pub const EDGE_METRICS: [MetricDecl; 1] = [MetricDecl::probability(
    "p_falls",
    "P(falls over the edge)",
    "P(fails the Initiative test and falls over the edge)",
)];

/// Every metric of the edge scenario: its own, then the fall's.
pub fn edge_metric_catalog() -> Vec<MetricDecl> {
    EDGE_METRICS
        .iter()
        .chain(super::FALL_METRICS.iter())
        .copied()
        .collect()
}

/// The edge rule with its metric handles.
pub struct EdgeRule {
    initiative: u32,
    down: bool,
    fall: FallRule,
    list: MetricList,
    falls: Metric,
}

impl Edge {
    /// The edge with its metric handles.
    pub fn into_rule(self) -> EdgeRule {
        let mut list = MetricList::new();
        let [falls] = EDGE_METRICS.map(|d| list.add(&d));
        let fall = FallRule::part_of(self.fall, &mut list);
        EdgeRule {
            initiative: self.initiative,
            down: self.down,
            fall,
            list,
            falls,
        }
    }
}

impl Mechanic for EdgeRule {
    type State = EdgeState;

    /// A Pinned warrior stands as its profile (Pinned is "Hit but not
    /// Wounded or receives a Flesh Wound": give the Flesh Wounded WS and BS
    /// as the profile); a Down one has no Wounds left and is Down, so the
    /// fall's Damage rolls on the Injury Table again ("If a Warrior who is
    /// Down suffers additional Wounds then roll on the Injury Table again").
    fn start(&self) -> EdgeState {
        let mut fall = self.fall.start();
        if self.down {
            fall.condition = Condition {
                wounds_left: 0,
                status: Status::Down,
                ..fall.condition
            };
        }
        EdgeState { fell: false, fall }
    }

    /// The Initiative test, then the fall's steps.
    fn steps(&self) -> usize {
        1 + self.fall.steps()
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut EdgeState) {
        match i {
            0 => s.fell = !initiative_test(dice, self.initiative),
            i if s.fell => self.fall.step(i - 1, dice, &mut s.fall),
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &EdgeState, sink: &mut impl MetricSink) {
        sink.record(self.falls, u64::from(s.fell));
        if s.fell {
            self.fall.record(&s.fall, sink);
        } else {
            self.fall.record_stayed(&s.fall, sink);
        }
    }
}
