//! The `jump` scenario: jumping across a gap and jumping down (Movement on
//! foot, "Jumping Across A Gap" and "Jumping Down"), the rule ([`Jump`])
//! with its declaration, parameters ([`JumpParams`]) and builder. A failed
//! jump is resolved as Fall Damage by the fall rule itself
//! ([`super::FallRule`], its steps and metrics), not a copy of it.

use super::{Fall, FallRule, FallState};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::gce::tables::initiative_test;
use crate::systems::gce::target::VictimParams;
use crate::systems::{
    MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params, Refusal, Scenario,
};

/// The `jump` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const JUMP_SCENARIO: Scenario = Scenario {
    name: "jump",
    about: "Jumping across a gap (D6 against the inches) or jumping down (Initiative), else Fall Damage",
    seed_section: "Jumping Across A Gap",
    params: JumpParams::decls,
    metrics: jump_metric_catalog,
    build: build_jump,
    variants: &[],
    test_points: &[
        // a 3" gap over a 4" drop: 3+ soars across
        &[
            ("gap", "3"),
            ("height", "4"),
            ("toughness", "3"),
            ("wounds", "1"),
            ("target_ws", "3"),
            ("target_bs", "3"),
        ],
        // jumping down 3" at Initiative 2, onto a warrior
        &[
            ("height", "3"),
            ("initiative", "2"),
            ("toughness", "3"),
            ("wounds", "2"),
            ("target_ws", "3"),
            ("target_bs", "3"),
            ("lands_on_warrior", "true"),
        ],
        // jumping down 7": a Fall, no test
        &[
            ("height", "7"),
            ("toughness", "4"),
            ("wounds", "3"),
            ("target_ws", "4"),
            ("target_bs", "4"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "jumping down 3\" or less with no Initiative to test",
            point: 1,
            set: &[],
            unset: &["initiative"],
            field: "initiative",
            words: &["missing", "Initiative"],
        },
        Refusal {
            what: "a gap of no width",
            point: 0,
            set: &[("gap", "0")],
            unset: &[],
            field: "gap",
            words: &["more than 0"],
        },
    ],
    naive: crate::systems::gce::naive::JUMP,
};

crate::param_struct! {
    /// Parameters of the jump scenario.
    pub struct JumpParams {
        ..victim: VictimParams,
        gap: Opt<f64> = real(0.0, 100.0)
            .about("inches of gap jumped across (a D6 equal or greater soars across); absent: jumping down")
            .seed("Jumping Across A Gap"),
        height: f64 = real(0.0, 100.0)
            .required()
            .about("inches to the ground below: the drop jumped down, or the fall when a jump across the gap fails")
            .seed("Jumping Down"),
        initiative: Opt<i64> = int(1, 10)
            .about("the jumper's Initiative, tested when jumping down 3\" or less")
            .seed("Jumping Down"),
        lands_on_warrior: bool = flag()
            .about("a fall lands on another warrior (4+: the same damage)")
            .seed("Fall Damage"),
    }
}

fn build_jump(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = JumpParams::read(p)?;
    let leap = match p.gap.value {
        Some(gap) if gap <= 0.0 => {
            return Err(ParamError::new(
                p.gap.name(),
                format!("{gap} is no gap: a gap to jump is more than 0\""),
            ));
        }
        Some(gap) => Leap::Gap(gap),
        None if p.height <= 3.0 => Leap::DownTested(p.initiative.need()? as u32),
        None => Leap::DownFalls,
    };
    let jump = Jump {
        leap,
        fall: Fall {
            height: p.height,
            victim: p.victim.stats()?,
            lands_on_warrior: p.lands_on_warrior,
        },
    };
    Ok(Box::new(StepModel::new(jump.into_rule())))
}

/// The jump a warrior makes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leap {
    /// "Jumping Across A Gap": "roll a D6. If you get a score of equal or
    /// greater than the distance then the Warrior soars across the gap. If
    /// not, resolve fall damage (see Fall Damage)." The gap in inches.
    Gap(f64),
    /// "Jumping Down": "If the drop is 3” or less then take an Initiative
    /// test. Passing means the jump goes fine ... Failure should be
    /// resolved as per the Fall Damage rules". The jumper's Initiative.
    DownTested(u32),
    /// "If the drop is more than 3” then it works like a Fall": no test.
    DownFalls,
}

/// A jump, and the fall a failed one takes (from `fall.height`).
#[derive(Clone, Debug)]
pub struct Jump {
    /// The jump.
    pub leap: Leap,
    /// The fall when it fails: the height below, the jumper, whether it
    /// lands on a warrior.
    pub fall: Fall,
}

/// A jump's outcome: whether the jumper fell, and the fall's.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JumpState {
    fell: bool,
    fall: FallState,
}

/// The jump's own metrics (the fall's follow them).
pub const JUMP_METRICS: [MetricDecl; 2] = [
    MetricDecl::probability(
        "p_made_it",
        "P(makes the jump)",
        "P(soars across the gap, or lands fine and moves on)",
    ),
    MetricDecl::probability(
        "p_falls",
        "P(falls)",
        "P(the jump fails and is resolved as Fall Damage)",
    ),
];

/// Every metric of the jump scenario: its own, then the fall's.
pub fn jump_metric_catalog() -> Vec<MetricDecl> {
    JUMP_METRICS
        .iter()
        .chain(super::FALL_METRICS.iter())
        .copied()
        .collect()
}

/// The jump rule with its metric handles.
pub struct JumpRule {
    leap: Leap,
    fall: FallRule,
    list: MetricList,
    made_it: Metric,
    falls: Metric,
}

impl Jump {
    /// The jump with its metric handles.
    pub fn into_rule(self) -> JumpRule {
        let mut list = MetricList::new();
        let [made_it, falls] = JUMP_METRICS.map(|d| list.add(&d));
        let fall = FallRule::part_of(self.fall, &mut list);
        JumpRule {
            leap: self.leap,
            fall,
            list,
            made_it,
            falls,
        }
    }
}

impl Mechanic for JumpRule {
    type State = JumpState;

    fn start(&self) -> JumpState {
        JumpState {
            fell: false,
            fall: self.fall.start(),
        }
    }

    /// The jump, then the fall's steps.
    fn steps(&self) -> usize {
        1 + self.fall.steps()
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut JumpState) {
        match (i, self.leap) {
            (0, Leap::Gap(gap)) => s.fell = f64::from(dice.d6()) < gap,
            (0, Leap::DownTested(initiative)) => s.fell = !initiative_test(dice, initiative),
            (0, Leap::DownFalls) => s.fell = true,
            (i, _) if s.fell => self.fall.step(i - 1, dice, &mut s.fall),
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &JumpState, sink: &mut impl MetricSink) {
        sink.record(self.made_it, u64::from(!s.fell));
        sink.record(self.falls, u64::from(s.fell));
        if s.fell {
            self.fall.record(&s.fall, sink);
        } else {
            self.fall.record_no_fall(sink);
        }
    }
}
