//! D20 sci-fi skirmish tables (seed `001_9921de03e7af5dba.txt`): exact
//! values derived by hand from the seed's charts, or by brute force over
//! raw dice here, never from the rule code, compared with krunch's exact
//! evaluator.
//!
//! The charts used throughout: "Roll 1D20 and score less than or equal to
//! the figure to damage the target. An unmodified roll of 20 is bad, it
//! means the weapon has jammed"; "assuming you started with a chance of
//! hitting the target (i.e. not X) then you always get a hit on a 1";
//! EFFECT OF HIT CHART "Hero / common trooper / Injury: 1-3 / 1-2 Duck
//! Back, 4-5 / 3-4 Wounded, 6 / 5-6 Dead"; "Enhanced Nervous system: Can
//! ignore Duck backs and 1st wound. No effect at all. 2nd wound still
//! kills as normal."

#[path = "common/independent.rs"]
mod independent;

use independent::{binom, check, check_with};

const SYS: &str = "skirmish20";

// ----------------------------------------------------------- effect of hit

/// One hit on a trooper: 1-2 duck back, 3-4 wounded, 5-6 dead; on a Hero:
/// 1-3, 4-5, 6.
#[test]
fn effect_of_hit_one_hit() {
    let t = [("hits", "1")];
    check(SYS, "effect_of_hit", &t, "p_dead", 2.0 / 6.0);
    check(SYS, "effect_of_hit", &t, "p_wounded", 2.0 / 6.0);
    check(SYS, "effect_of_hit", &t, "p_duck_back", 2.0 / 6.0);
    let h = [("hits", "1"), ("target_kind", "hero")];
    check(SYS, "effect_of_hit", &h, "p_dead", 1.0 / 6.0);
    check(SYS, "effect_of_hit", &h, "p_wounded", 2.0 / 6.0);
    check(SYS, "effect_of_hit", &h, "p_duck_back", 3.0 / 6.0);
}

/// Two hits on a trooper: dead on any 5-6, or on two wounds ("2nd wound
/// still kills"): 1 - (4/6)^2 + (2/6)^2 = 24/36; wounded: exactly one 3-4
/// and the other 1-2: 2 * 2/6 * 2/6 = 8/36. An already wounded trooper
/// hit once dies on 3-6.
#[test]
fn effect_of_hit_second_wound_kills() {
    let two = [("hits", "2")];
    check(SYS, "effect_of_hit", &two, "p_dead", 24.0 / 36.0);
    check(SYS, "effect_of_hit", &two, "p_wounded", 8.0 / 36.0);
    let hurt = [("hits", "1"), ("target_wounded", "true")];
    check(SYS, "effect_of_hit", &hurt, "p_dead", 4.0 / 6.0);
}

/// Enhanced Nervous system: one hit on a trooper is dead on 5-6 and
/// otherwise "No effect at all" (the duck back and the first wound
/// ignored).
#[test]
fn effect_of_hit_enhanced_nervous_system() {
    let p = [("hits", "1"), ("target_enhanced_nervous_system", "true")];
    check(SYS, "effect_of_hit", &p, "p_dead", 2.0 / 6.0);
    check(SYS, "effect_of_hit", &p, "p_wounded", 0.0);
    check(SYS, "effect_of_hit", &p, "p_duck_back", 0.0);
    check(SYS, "effect_of_hit", &p, "p_unaffected", 4.0 / 6.0);
}

// ----------------------------------------------------------- hit allocation

/// "roll 1D6 for each attack, on a roll of 6 the attack goes against the
/// Hero ... e.g. 6 Necrons fire 2AP's into a squad ... Roll 12D6 ... Three
/// of the shots have been directed at the saergent": Binomial(12, 1/6).
#[test]
fn hit_allocation_the_seed_example() {
    let p = [("attacks", "12")];
    check(SYS, "hit_allocation", &p, "mean_at_hero", 2.0);
    check(
        SYS,
        "hit_allocation",
        &p,
        "p_hero_attacked",
        1.0 - (5.0f64 / 6.0).powi(12),
    );
    check(
        SYS,
        "hit_allocation",
        &p,
        "at_hero=3",
        binom(12, 3, 1.0 / 6.0),
    );
    check(
        SYS,
        "hit_allocation",
        &[("attacks", "1")],
        "mean_at_hero",
        1.0 / 6.0,
    );
}

// ------------------------------------------------------------ necron repair

/// "Roll a D6 to repair ... On a roll of "5,6" they stand back up ...
/// within 12" of a Tomb Spider or a Necron Lord then they can get back up
/// on a roll of 4,5,6 ... Exception to this recovery is any Necron
/// destroyed on a roll of 1 on a D20."
#[test]
fn necron_repair() {
    let far = [("destroyed", "5"), ("destroyed_on_a_one", "2")];
    check(SYS, "necron_repair", &far, "mean_repaired", 1.0);
    check(SYS, "necron_repair", &far, "p_all_repaired", 0.0);
    check(SYS, "necron_repair", &far, "repaired=3", 1.0 / 27.0);
    let near = [("destroyed", "4"), ("near_lord_or_tomb_spider", "true")];
    check(SYS, "necron_repair", &near, "mean_repaired", 2.0);
    check(SYS, "necron_repair", &near, "p_all_repaired", 1.0 / 16.0);
}

// --------------------------------------------------------------- quick draw

/// Quick Draw INITIATIVE TABLE (1D10): "Std armour (5+) 4, Storm Troop 3,
/// Power armour/ chimera/ sentinel 2, Heavy Tank 1, Hand Gun +2, Rifle
/// shoulder weapon 0, Heavy Weapon -2, fast draw +4, Returning fire ahead
/// of turn -3". Std + rifle (4) against power + hand gun (4): a tie 10 of
/// 100, read as simultaneous (the default; the seed does not say).
#[test]
fn quick_draw_equal_totals() {
    let p = [
        ("a_armour", "std"),
        ("a_weapon", "rifle"),
        ("b_armour", "power"),
        ("b_weapon", "hand_gun"),
    ];
    check(SYS, "quick_draw", &p, "p_simultaneous", 0.1);
    check(SYS, "quick_draw", &p, "p_a_first", 0.45);
    // Re-rolling ties: each first with probability 1/2.
    let v = [("quick_draw_tie", "roll_again")];
    check_with(SYS, "quick_draw", &p, &v, "p_a_first", 0.5);
}

/// A tank (1) with a heavy weapon (-2) firing ahead of turn (-3) is -4;
/// std (4) + hand gun (2) + fast draw (4) is 10: B's worst (11) beats A's
/// best (6). Std + rifle (4) against storm + rifle (3): A first unless
/// B's D10 beats A's by 2 or more: P(b - a >= 2) = 36/100, tie (b - a =
/// 1) 9/100.
#[test]
fn quick_draw_modifiers_at_the_limits() {
    let p = [
        ("a_armour", "tank"),
        ("a_weapon", "heavy"),
        ("a_ahead_of_turn", "true"),
        ("b_armour", "std"),
        ("b_weapon", "hand_gun"),
        ("b_fast_draw", "true"),
    ];
    check(SYS, "quick_draw", &p, "p_b_first", 1.0);
    let q = [("a_armour", "std"), ("b_armour", "storm")];
    check(SYS, "quick_draw", &q, "p_b_first", 0.36);
    check(SYS, "quick_draw", &q, "p_simultaneous", 0.09);
    check(SYS, "quick_draw", &q, "p_a_first", 0.55);
}

// ----------------------------------------------------------- vehicle damage

/// Vehicle Damage Table 1D10: "1-2 Bounce off ... 3-4 Stunned ... 7
/// Vehicle immobilised ... 8 Vehicle Immobilised, and all guns destroyed.
/// All passengers (if APC) roll on "effect of hit chart" with -1 to the
/// roll ... 9 Vehicle Burns. All passengers ... no modifiers ... 10
/// Vehicle explodes ... No one of any sort gets out alive." One hit, two
/// troopers aboard: dead each on 8 (a 6: 6 - 1 = 5), 9 (5-6), 10 (all):
/// 1/10 * (1/6 + 2/6 + 1) = 0.15 each.
#[test]
fn vehicle_damage_one_hit() {
    let p = [("hits", "1"), ("minor_guns", "1"), ("passengers", "2")];
    check(SYS, "vehicle_damage", &p, "p_stunned", 0.2);
    check(SYS, "vehicle_damage", &p, "p_burns", 0.1);
    check(SYS, "vehicle_damage", &p, "p_explodes", 0.1);
    check(SYS, "vehicle_damage", &p, "p_can_move", 0.6);
    check(SYS, "vehicle_damage", &p, "mean_passengers_dead", 0.3);
}

/// "If the damage has already been suffered, then take the next up, keep
/// going up". Wrecked (9 or 10): either roll a 9 or 10 (0.2 + 0.8 * 0.2),
/// or an 8 first ("Immobilised, and all guns destroyed") and then a 5, 6,
/// 7 or 8, each already suffered (the minor gun and the biggest gun are
/// destroyed, the vehicle immobilised), so the next up and on to 9:
/// 0.1 * 0.4. Total 0.40. Explodes: a 10 first, or a second 10 after a
/// first roll of 1-8: 0.1 + 0.8 * 0.1 = 0.18. A vehicle that burns (9) is
/// out and rolls no more (krunch's reading: the seed does not say whether
/// a burning vehicle hit again can still explode; rolling on would make 9
/// then 9 "the next up", 10, and give 0.19).
#[test]
fn vehicle_damage_take_the_next_one_up() {
    let p = [("hits", "2"), ("minor_guns", "1")];
    check(SYS, "vehicle_damage", &p, "p_explodes", 0.18);
    check(SYS, "vehicle_damage", &p, "p_wrecked", 0.40);
}

/// "5 A minor Gun taken out permanently- No other effect (if there is a
/// minor gun)". A vehicle that never had one (a Sentinel: "1 Autocannon"),
/// one hit: by default a 5 does nothing, so no lasting damage on 1-5
/// (0.5), the biggest gun out on 6, 8, 9, 10 (0.4). The `next_up` variant
/// reads the missing gun as damage already suffered: a 5 is a 6, so 0.4
/// and 0.5.
#[test]
fn vehicle_damage_a_five_with_no_minor_gun() {
    let p = [("hits", "1"), ("minor_guns", "0")];
    check(SYS, "vehicle_damage", &p, "p_no_lasting_damage", 0.5);
    check(SYS, "vehicle_damage", &p, "p_biggest_gun_out", 0.4);
    let up = [("no_minor_gun", "next_up")];
    check_with(SYS, "vehicle_damage", &p, &up, "p_no_lasting_damage", 0.4);
    check_with(SYS, "vehicle_damage", &p, &up, "p_biggest_gun_out", 0.5);
}

/// A minor gun lost is "damage already suffered": "take the next up", under
/// either reading of a vehicle that never had one. A Chimera (one minor
/// gun), two hits, P(biggest gun out, or all guns destroyed, or wrecked):
/// it survives with its biggest gun when the first D10 is 1-4 (0.4) and
/// the second 1-5 or 7 (0.6); the first a 5 (0.1: minor gun out) and the
/// second 1-4 or 7 (0.5: a second 5 goes up to 6); the first a 7 (0.1:
/// immobilised) and the second 1-5 (0.5: a 7 goes up to 8). 0.24 + 0.05 +
/// 0.05 = 0.34 survives, 0.66 loses the biggest gun (a second 5 doing
/// nothing would make it 0.65).
#[test]
fn vehicle_damage_a_second_five_steps_up() {
    let p = [("hits", "2"), ("minor_guns", "1")];
    for reading in ["no_effect", "next_up"] {
        let v = [("no_minor_gun", reading)];
        check_with(SYS, "vehicle_damage", &p, &v, "p_biggest_gun_out", 0.66);
    }
}

// ----------------------------------------------------------------- shooting

/// "Melta Gun (anti tank) 12 | 13 | 12 | 11 | 9 | 2 | broken", "large
/// target +1, tanks +2": against a tank one 2-AP shot hits on 9 + 2 = 11
/// or less. Tank armour ("the strongest armour ... 13 or 14 armour in
/// WH40K") is a vehicle's, so the hit rolls on the Vehicle Damage Table
/// without a separate target_vehicle: wrecked on a 9 or 10, 11/20 * 2/10;
/// no trooper injuries are reported.
#[test]
fn shooting_a_tank_is_shooting_a_vehicle() {
    let p = [
        ("weapon", "melta_gun"),
        ("armour", "tank"),
        ("range", "6"),
        ("target_size", "tank"),
    ];
    check(SYS, "shooting", &p, "p_hit", 11.0 / 20.0);
    check(SYS, "shooting", &p, "p_vehicle_wrecked", 11.0 / 20.0 * 0.2);
    let names: Vec<String> = independent::exact_all(SYS, "shooting", &p)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(
        !names.iter().any(|n| n == "p_dead" || n == "p_duck_back"),
        "{names:?}"
    );
}

/// "Each turn each character gets 3 action points ... No more than 2AP's
/// per turn may be used on firing": after moving 2D6 one AP is left, so a
/// bolt pistol ("12 | 8 | 5 | 3 | X | 1 | Jam") fires once, at 8 - 2 (two
/// D6 moved) = 6: P(hit) = 6/20. Asking for 2 AP of firing is refused,
/// naming the field, not cut to 1.
#[test]
fn firing_ap_beyond_what_the_moves_leave_is_refused() {
    let p = [
        ("weapon", "bolt_pistol"),
        ("range", "6"),
        ("armour", "std"),
        ("moved_d6", "2"),
    ];
    check(SYS, "shooting", &p, "p_hit", 6.0 / 20.0);
    let mut one = p.to_vec();
    one.push(("firing_ap", "1"));
    check(SYS, "shooting", &one, "p_hit", 6.0 / 20.0);
    let mut two = p.to_vec();
    two.push(("firing_ap", "2"));
    let mut params = krunch::systems::Params::new();
    for (k, v) in &two {
        params.set(*k, krunch::systems::ParamValue::from_text(v));
    }
    let e = krunch::systems::build(SYS, "shooting", &params, &krunch::systems::Params::new())
        .err()
        .expect("firing_ap = 2 after moving 2 D6 of 3 AP is refused");
    let text = e.to_string();
    assert!(
        text.contains("firing_ap") && text.contains("leaves 1 of the firer's 3 AP"),
        "{text}"
    );
}

/// A bolt pistol ("Bolt Pistol 12 | 8 | 5 | 3 | X | 1 | Jam") fires once
/// (1 AP) at a std trooper: D20 <= 8 hits, a 20 jams; the effect of hit
/// chart then kills on 5-6.
#[test]
fn shooting_bolt_pistol_once() {
    let p = [
        ("weapon", "bolt_pistol"),
        ("firing_ap", "1"),
        ("range", "6"),
        ("armour", "std"),
    ];
    check(SYS, "shooting", &p, "p_hit", 8.0 / 20.0);
    check(SYS, "shooting", &p, "p_jam", 1.0 / 20.0);
    check(SYS, "shooting", &p, "p_dead", 8.0 / 20.0 / 3.0);
    check(SYS, "shooting", &p, "p_wounded", 8.0 / 20.0 / 3.0);
}

/// RANGED TO HIT MODIFIERS "Wounded -2 ... Target Moving >3" or Under
/// Cover -2": against power armour (3) that leaves -1, but "you always get
/// a hit on a 1": 1/20. Against a tank ("X") never, not even on a 1.
#[test]
fn shooting_modifiers_past_the_chart() {
    let p = [
        ("weapon", "bolt_pistol"),
        ("firing_ap", "1"),
        ("range", "6"),
        ("armour", "power"),
        ("firer_wounded", "true"),
        ("target_cover", "cover"),
    ];
    check(SYS, "shooting", &p, "p_hit", 1.0 / 20.0);
    let x = [
        ("weapon", "bolt_pistol"),
        ("firing_ap", "1"),
        ("range", "6"),
        ("armour", "tank"),
    ];
    check(SYS, "shooting", &x, "p_hit", 0.0);
    check(SYS, "shooting", &x, "p_jam", 1.0 / 20.0);
}

// ------------------------------------------------------------- close combat

fn cc<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v = vec![
        ("attacker", "hand_weapon"),
        ("attacker_armour", "std"),
        ("defender", "hand_weapon"),
        ("defender_armour", "std"),
    ];
    v.extend_from_slice(extra);
    v
}

/// One on one with hand weapons ("Hand Weapon 8 | 6 | 3 | 1"), std
/// armour: "everyone rolls simultaneously for damage": each blow hits on
/// D20 <= 8, then the effect of hit chart: dead 8/20 * 1/3 = 2/15, wounded
/// 2/15, a casualty 4/15. "If at the end of the close combat the side that
/// suffered most casualties has at least 50% dead or wounded then roll
/// 1D6. on a roll of 1,2,3 they run away ... Tau actually deduct 1": the
/// defender (Tau: runs on 1-4) tests when it is wounded (dead figures do
/// not run) and the attacker is no casualty.
#[test]
fn close_combat_one_on_one_and_the_run_away_rule() {
    let p = cc(&[("defender_aftermath", "minus_one")]);
    let (dead, cas) = (2.0 / 15.0, 4.0 / 15.0);
    check(SYS, "close_combat", &p, "p_defender_dead", dead);
    check(SYS, "close_combat", &p, "p_defender_wounded", dead);
    check(SYS, "close_combat", &p, "p_both_dead", dead * dead);
    check(SYS, "close_combat", &p, "mean_hits_on_defender", 0.4);
    check(
        SYS,
        "close_combat",
        &p,
        "p_defender_runs",
        dead * (1.0 - cas) * 4.0 / 6.0,
    );
    check(
        SYS,
        "close_combat",
        &p,
        "p_attackers_run",
        dead * (1.0 - cas) * 3.0 / 6.0,
    );
}

/// Three attackers ("never ... more than 3 attackers against a single
/// opponent") with Martial Arts ("+4 for Close Combat throw": D20 <= 12):
/// each blow kills 12/20 * 1/3 = 1/5, wounds 1/5, else nothing; the
/// trooper dies on a kill or two wounds: 1 - (3/5)^3 - 3 (1/5)(3/5)^2 =
/// 71/125. The attackers' side (3 figures, one struck at) never has 50%
/// casualties, so never tests.
#[test]
fn close_combat_three_attackers() {
    let p = cc(&[("attackers", "3"), ("attacker_martial_arts", "true")]);
    check(SYS, "close_combat", &p, "p_defender_dead", 71.0 / 125.0);
    check(SYS, "close_combat", &p, "mean_hits_on_defender", 1.8);
    check(SYS, "close_combat", &p, "p_attackers_run", 0.0);
}

// --------------------------------------------------------- squad under fire

/// One bolt pistol shot a turn at a lone trooper for one turn: dead 2/15,
/// dead or wounded 4/15, and "at least 50% dead or wounded" then.
#[test]
fn squad_under_fire_one_on_one() {
    let p = [
        ("shooters", "1"),
        ("weapon", "bolt_pistol"),
        ("firing_ap", "1"),
        ("range", "6"),
        ("armour", "std"),
        ("troopers", "1"),
        ("turns", "1"),
    ];
    check(SYS, "squad_under_fire", &p, "mean_dead", 2.0 / 15.0);
    check(SYS, "squad_under_fire", &p, "mean_casualties", 4.0 / 15.0);
    check(SYS, "squad_under_fire", &p, "p_shaken", 4.0 / 15.0);
}

/// Two shooters, two troopers, one turn: "if a "Kill" is scored it has to
/// be given to an unwounded figure if one exists", and a Wounded result
/// goes to an unwounded figure while there is one (the default `spread`
/// reading of WOUND ALLOCATION): with at most two results on two figures
/// every Dead result is one dead, every Wounded one wounded: mean dead 2 *
/// 2/15, mean casualties 2 * 4/15.
#[test]
fn squad_under_fire_two_on_two() {
    let p = [
        ("shooters", "2"),
        ("weapon", "bolt_pistol"),
        ("firing_ap", "1"),
        ("range", "6"),
        ("armour", "std"),
        ("troopers", "2"),
        ("turns", "1"),
    ];
    check(SYS, "squad_under_fire", &p, "mean_dead", 4.0 / 15.0);
    check(SYS, "squad_under_fire", &p, "mean_casualties", 8.0 / 15.0);
}
