//! Battlefleet Gothic advanced rules (seed `004_d4c8740a73a9c193.txt`):
//! exact values derived by hand from the seed text, or by brute force over
//! raw dice here, never from the rule code, compared with krunch's exact
//! evaluator. Each test quotes the rule it reads.
//!
//! Leadership tests throughout: "pass a Leadership test" = the dice total
//! at most the Leadership (2D6 unless a rule says 1D6 or 3D6).

#[path = "common/independent.rs"]
mod independent;

use independent::{binom, check, p_sum_at_most, prob};

const SYS: &str = "bfg";

// ---------------------------------------------------------------- disengage

/// DISENGAGING FROM COMBAT: "a ship or escort squadron must pass a
/// Leadership test ... Each Blast marker within 5cm +1, Any celestial
/// phenomena within 15cm +3, Each enemy ship or Ordnance marker -1".
/// Ld 7 with 3 enemies is Ld 4: 2D6 <= 4 is 1+2+3 = 6 of 36.
#[test]
fn disengage_enemy_ships_lower_leadership() {
    let pairs = [("leadership", "7"), ("enemy_ships_or_ordnance", "3")];
    check(SYS, "disengage", &pairs, "p_disengage", 6.0 / 36.0);
    assert!((p_sum_at_most(2, 4) - 6.0 / 36.0).abs() < 1e-15);
}

/// Every modifier at once: Ld 5 + 2 blast markers + 3 (celestial) - 1
/// enemy = Ld 9: 2D6 <= 9 is 30 of 36.
#[test]
fn disengage_every_modifier() {
    let pairs = [
        ("leadership", "5"),
        ("blast_markers_within_5cm", "2"),
        ("celestial_phenomena_within_15cm", "true"),
        ("enemy_ships_or_ordnance", "1"),
    ];
    check(SYS, "disengage", &pairs, "p_disengage", 30.0 / 36.0);
}

/// Modifiers past the dice: Ld 2 with 5 enemies is -3 (never passes); Ld
/// 10 with 4 blast markers is 14 (always passes: the seed has no
/// automatic failure on a Leadership test).
#[test]
fn disengage_modifiers_at_their_limits() {
    let low = [("leadership", "2"), ("enemy_ships_or_ordnance", "5")];
    check(SYS, "disengage", &low, "p_disengage", 0.0);
    let high = [("leadership", "10"), ("blast_markers_within_5cm", "4")];
    check(SYS, "disengage", &high, "p_disengage", 1.0);
}

// ----------------------------------------------------------- asteroid field

/// ASTEROID FIELDS: "A ship or escort squadron that fails the Leadership
/// test suffers D6 damage from asteroid impacts, but its shields will
/// block damage as normal." Ld 7: pass 21/36, fail 15/36. Shields 2 block
/// two of the D6: damage max(D6 - 2, 0) = 0,0,1,2,3,4.
#[test]
fn asteroid_field_shields_block_damage() {
    let pairs = [("leadership", "7"), ("shields", "2")];
    let fail = 15.0 / 36.0;
    check(SYS, "asteroid_field", &pairs, "p_pass", 21.0 / 36.0);
    check(
        SYS,
        "asteroid_field",
        &pairs,
        "mean_damage",
        fail * 10.0 / 6.0,
    );
    check(
        SYS,
        "asteroid_field",
        &pairs,
        "damage=0",
        21.0 / 36.0 + fail * 2.0 / 6.0,
    );
    check(SYS, "asteroid_field", &pairs, "damage=4", fail / 6.0);
    check(SYS, "asteroid_field", &pairs, "damage=5", 0.0);
}

/// No shields, Ld 4: fail 30/36, each of 1..6 damage 30/36 * 1/6.
#[test]
fn asteroid_field_unshielded() {
    let pairs = [("leadership", "4")];
    let fail = 30.0 / 36.0;
    check(SYS, "asteroid_field", &pairs, "p_pass", 6.0 / 36.0);
    check(SYS, "asteroid_field", &pairs, "mean_damage", fail * 3.5);
    check(SYS, "asteroid_field", &pairs, "damage=6", fail / 6.0);
}

/// "Attack craft squadrons which move through an asteroid field are
/// destroyed on a D6 roll of 6": 1/6, whatever the Leadership.
#[test]
fn asteroid_field_attack_craft() {
    for ld in ["2", "12"] {
        let pairs = [("leadership", ld), ("attack_craft", "true")];
        check(SYS, "asteroid_field", &pairs, "p_destroyed", 1.0 / 6.0);
    }
}

// ---------------------------------------------------------------- warp rift

/// WARP RIFTS: "Ships moving into a warp rift must pass a Leadership test
/// on 3D6 ... If it fails, the ship disappears from the battle altogether
/// – lost in the warp! Roll a D6 for each ship lost in the warp after the
/// game: on a 1 it is lost in the warp forever". 3D6 <= 8 is 56 of 216.
#[test]
fn warp_rift_leadership_8() {
    let pairs = [("leadership", "8")];
    check(SYS, "warp_rift", &pairs, "p_navigates", 56.0 / 216.0);
    check(SYS, "warp_rift", &pairs, "p_lost_in_warp", 160.0 / 216.0);
    check(
        SYS,
        "warp_rift",
        &pairs,
        "p_lost_forever",
        160.0 / 216.0 / 6.0,
    );
    assert!((p_sum_at_most(3, 8) - 56.0 / 216.0).abs() < 1e-15);
}

/// Ld 12 on 3D6: 3D6 >= 13 is 56 of 216 (the mirror of <= 8), so 160/216
/// pass; Ld 2 on 3D6 never passes (3 is the least).
#[test]
fn warp_rift_leadership_12_and_2() {
    check(
        SYS,
        "warp_rift",
        &[("leadership", "12")],
        "p_navigates",
        160.0 / 216.0,
    );
    check(SYS, "warp_rift", &[("leadership", "2")], "p_navigates", 0.0);
    check(
        SYS,
        "warp_rift",
        &[("leadership", "2")],
        "p_lost_forever",
        1.0 / 6.0,
    );
}

// --------------------------------------------------------------------- ram

/// The seed's own ram: "the Agrippa, a Lunar class cruiser, rams the
/// Unclean, a Murder class Chaos cruiser in the starboard side. The
/// Agrippa had a starting damage capacity of 8 so it rolls 8D6 ... (which
/// has Armour 5) ... the Unclean (with a starting damage capacity of 8)
/// rolls 4D6 to damage the Agrippa (which has armour 6 on the front".
/// Cruiser against cruiser: "the Agrippa would take a Leadership test on
/// 2D6 to ram another cruiser". Ld 8: 26/36. Dealt: Binomial(8, 1/3) on a
/// pass; taken: Binomial(4, 1/6) on a pass.
#[test]
fn ram_agrippa_into_unclean() {
    let pairs = [
        ("rammer", "agrippa"),
        ("target", "unclean"),
        ("rammer_leadership", "8"),
    ];
    let pass = 26.0 / 36.0;
    check(SYS, "ram", &pairs, "p_ram_succeeds", pass);
    check(SYS, "ram", &pairs, "mean_damage_dealt", pass * 8.0 / 3.0);
    check(SYS, "ram", &pairs, "mean_damage_taken", pass * 4.0 / 6.0);
    check(SYS, "ram", &pairs, "dealt=3", pass * binom(8, 3, 1.0 / 3.0));
    check(
        SYS,
        "ram",
        &pairs,
        "taken=0",
        1.0 - pass + pass * binom(4, 0, 1.0 / 6.0),
    );
    // "get crippled once they have lost half their damage points": 4 of 8.
    let crippled: f64 = (4..=8).map(|k| binom(8, k, 1.0 / 3.0)).sum();
    check(SYS, "ram", &pairs, "p_target_crippled", pass * crippled);
    check(
        SYS,
        "ram",
        &pairs,
        "p_target_destroyed",
        pass * (1.0f64 / 3.0).powi(8),
    );
}

/// "if the target vessel is a larger type than the ramming one then the
/// Leadership test is rolled on just 1D6" and "If the vessels are hitting
/// head on (ie, front to front) the rammed ... vessel rolls a number of
/// dice equal to its full starting damage capacity". An escort (1 damage,
/// front armour 4, Ld 5) rams a battleship (12 damage, armour 6) head on:
/// pass 5/6; 1 die at 6+ deals; 12 dice at 4+ back, the escort dies to any.
#[test]
fn ram_escort_into_battleship_head_on() {
    let pairs = [
        ("rammer_type", "escort"),
        ("rammer_starting_damage", "1"),
        ("rammer_front_armour", "4"),
        ("rammer_leadership", "5"),
        ("target_type", "battleship"),
        ("target_starting_damage", "12"),
        ("target_armour", "6"),
        ("head_on", "true"),
    ];
    let pass = 5.0 / 6.0;
    check(SYS, "ram", &pairs, "p_ram_succeeds", pass);
    check(SYS, "ram", &pairs, "mean_damage_dealt", pass / 6.0);
    check(
        SYS,
        "ram",
        &pairs,
        "p_rammer_destroyed",
        pass * (1.0 - 0.5f64.powi(12)),
    );
}

/// "the Leadership test is taken on 3D6 if the target vessel is of a
/// smaller type than the ramming one": a cruiser at Ld 8 ramming an escort
/// passes on 3D6 <= 8, 56 of 216. Side ram: half of 2 starting damage = 1
/// die back.
#[test]
fn ram_cruiser_into_escort_on_3d6() {
    let pairs = [
        ("rammer_type", "cruiser"),
        ("rammer_starting_damage", "8"),
        ("rammer_front_armour", "5"),
        ("rammer_leadership", "8"),
        ("target_type", "escort"),
        ("target_starting_damage", "2"),
        ("target_armour", "4"),
    ];
    let pass = 56.0 / 216.0;
    check(SYS, "ram", &pairs, "p_ram_succeeds", pass);
    check(SYS, "ram", &pairs, "mean_damage_taken", pass * 2.0 / 6.0);
    // Destroyed: at least 2 of 8 dice at 4+.
    let p2 = 1.0 - binom(8, 0, 0.5) - binom(8, 1, 0.5);
    check(SYS, "ram", &pairs, "p_target_destroyed", pass * p2);
}

// ---------------------------------------------------------------- boarding

/// P(crit) for the loser and the winner by the difference in scores, read
/// off "Difference In Scores / Winners/Losers Score Critical Hit On: 1
/// Stalemate 5+/5+, 2 Heavy Fighting 4+/5+, 3 Driven Back 3+/6+, 4 Stormed
/// 2+/6+, 5+ Overwhelmed Auto/None", the first number the loser's (the
/// worked example: after Heavy Fighting "the Hyperion will suffer a
/// critical hit on a D6 roll of 4, 5 or 6. The Plagueclaw will also
/// suffer a critical hit on a D6 roll of 5 or 6").
fn boarding_crits(diff: u32) -> (f64, f64) {
    match diff {
        0 => (0.0, 0.0),
        1 => (2.0 / 6.0, 2.0 / 6.0),
        2 => (3.0 / 6.0, 2.0 / 6.0),
        3 => (4.0 / 6.0, 1.0 / 6.0),
        4 => (5.0 / 6.0, 1.0 / 6.0),
        _ => (1.0, 0.0),
    }
}

/// First round by brute force over the two D6: the boarders (`a_left`
/// damage left) add `a_mod`, the boarded ship (`d_left`) adds `d_mod`.
/// Returns (win, draw, lose, P(defender crit), P(boarder crit)). "The
/// losing ship suffers 1 point of damage for each point it lost the combat
/// by ... If a ship is reduced to 0 damage by a boarding action ... the
/// ship automatically becomes a drifting hulk": a loser the damage reduces
/// to 0 is a hulk and takes no critical (reading: a hulk has nothing left
/// to damage; krunch records no critical for it).
fn first_round(a_mod: i32, d_mod: i32, a_left: i32, d_left: i32) -> (f64, f64, f64, f64, f64) {
    let mut out = (0.0, 0.0, 0.0, 0.0, 0.0);
    for a in 1..=6 {
        for d in 1..=6 {
            let diff = (a + a_mod) - (d + d_mod);
            let w = 1.0 / 36.0;
            let (loser, winner) = boarding_crits(diff.unsigned_abs());
            match diff.signum() {
                1 => {
                    out.0 += w;
                    if d_left > diff {
                        out.3 += w * loser;
                    }
                    out.4 += w * winner;
                }
                0 => out.1 += w,
                _ => {
                    out.2 += w;
                    out.3 += w * winner;
                    if a_left > -diff {
                        out.4 += w * loser;
                    }
                }
            }
        }
    }
    out
}

/// The worked example's ships as customs: the Plagueclaw (6 damage, Chaos)
/// boards the Hyperion (3 damage, no turrets): "Own boarding value is
/// twice the enemy's +2", "Orks or Chaos +1": D6 + 3 against D6.
#[test]
fn boarding_chaos_twice_the_value() {
    let pairs = [
        ("attacker_starting_damage", "6"),
        ("defender_starting_damage", "3"),
        ("defender_turrets", "0"),
        ("attacker_race", "chaos"),
    ];
    let (win, draw, lose, dcrit, acrit) = first_round(3, 0, 6, 3);
    assert!((win - 30.0 / 36.0).abs() < 1e-15 && (draw - 3.0 / 36.0).abs() < 1e-15);
    check(SYS, "boarding", &pairs, "p_win", win);
    check(SYS, "boarding", &pairs, "p_draw", draw);
    check(SYS, "boarding", &pairs, "p_lose", lose);
    check(
        SYS,
        "boarding",
        &pairs,
        "p_defender_critical_first_round",
        dcrit,
    );
    check(
        SYS,
        "boarding",
        &pairs,
        "p_boarder1_critical_first_round",
        acrit,
    );
}

/// Turrets count for the defender: "The ship being boarded also adds its
/// number of remaining turrets." 4 damage against 2 damage + 2 turrets is
/// equal (no value modifier); "Space Marines +2" to the defender, and the
/// boarders' "Enemy ship is on special orders +1": D6 + 1 against D6 + 2.
#[test]
fn boarding_turrets_and_marines() {
    let pairs = [
        ("attacker_starting_damage", "4"),
        ("defender_starting_damage", "2"),
        ("defender_turrets", "2"),
        ("defender_race", "space_marines"),
        ("defender_on_special_orders", "true"),
    ];
    let (win, draw, lose, dcrit, acrit) = first_round(1, 2, 4, 2);
    check(SYS, "boarding", &pairs, "p_win", win);
    check(SYS, "boarding", &pairs, "p_draw", draw);
    check(SYS, "boarding", &pairs, "p_lose", lose);
    check(
        SYS,
        "boarding",
        &pairs,
        "p_defender_critical_first_round",
        dcrit,
    );
    check(
        SYS,
        "boarding",
        &pairs,
        "p_boarder1_critical_first_round",
        acrit,
    );
}

/// "Own boarding value is four or more times the enemy's +4 *Only apply
/// highest modifier" and "Enemy ship is crippled +2": 8 damage boards a
/// 2-of-8 ship (crippled: lost half) with no turrets: D6 + 6 against D6,
/// the boarders never lose; a 5+ difference is Overwhelmed, "Auto/None".
#[test]
fn boarding_four_times_and_crippled() {
    let pairs = [
        ("attacker_starting_damage", "8"),
        ("defender_starting_damage", "8"),
        ("defender_damage", "2"),
        ("defender_turrets", "0"),
    ];
    let (win, _, lose, dcrit, acrit) = first_round(6, 0, 8, 2);
    assert_eq!(lose, 0.0);
    check(SYS, "boarding", &pairs, "p_win", win);
    check(SYS, "boarding", &pairs, "p_lose", 0.0);
    check(
        SYS,
        "boarding",
        &pairs,
        "p_defender_critical_first_round",
        dcrit,
    );
    check(
        SYS,
        "boarding",
        &pairs,
        "p_boarder1_critical_first_round",
        acrit,
    );
}

/// Who wins the action, where one round decides it. 8 damage boards a
/// 2-of-8 ship, no turrets: D6 + 6 against D6 ("four or more times the
/// enemy's +4", "Enemy ship is crippled +2"), so the boarders win the one
/// round: "The player with the highest total score is the winner", no
/// draw, no grapple, one end phase. Their only harm is a winner's
/// critical, at most D6 (Bulkhead collapse) against 8 left: they survive.
/// The other way round (2 damage left of 8 boarding a ship of 8, D6
/// against D6 + 6 for the defender: "Enemy ship is crippled" and four times
/// the value), the boarded ship wins, and its critical cannot take 8 to 0.
#[test]
fn boarding_who_wins_a_one_round_action() {
    let strong = [
        ("attacker_starting_damage", "8"),
        ("defender_starting_damage", "8"),
        ("defender_damage", "2"),
        ("defender_turrets", "0"),
    ];
    check(SYS, "boarding", &strong, "p_boarders_win_action", 1.0);
    check(SYS, "boarding", &strong, "p_defender_wins_action", 0.0);
    check(SYS, "boarding", &strong, "p_both_destroyed", 0.0);
    check(SYS, "boarding", &strong, "end_phases=1", 1.0);
    check(SYS, "boarding", &strong, "mean_end_phases", 1.0);
    let weak = [
        ("attacker_starting_damage", "8"),
        ("attacker_damage", "2"),
        ("defender_starting_damage", "8"),
        ("defender_turrets", "0"),
    ];
    check(SYS, "boarding", &weak, "p_boarders_win_action", 0.0);
    check(SYS, "boarding", &weak, "p_defender_wins_action", 1.0);
    check(SYS, "boarding", &weak, "mean_end_phases", 1.0);
}

/// A first-round draw grapples the ships: "continue fighting in each
/// subsequent end phase ... until the boarding action results in one of
/// the ships being reduced to zero damage. The victorious (ie, surviving)
/// ship". The Plagueclaw's D6 + 3 against the Hyperion's D6 (as above):
/// round 1 is decided 33/36 of the time (30 wins, 3 losses), so one end
/// phase ends it 33/36; the boarders win the action at most when they win
/// round 1 or draw it (33/36), and the three outcomes share out the whole.
#[test]
fn boarding_who_wins_with_a_grapple() {
    let pairs = [
        ("attacker_starting_damage", "6"),
        ("defender_starting_damage", "3"),
        ("defender_turrets", "0"),
        ("attacker_race", "chaos"),
    ];
    let at = |m: &str| independent::exact(SYS, "boarding", &pairs, m);
    let (win, lose, both) = (
        at("p_boarders_win_action"),
        at("p_defender_wins_action"),
        at("p_both_destroyed"),
    );
    assert!(
        (win + lose + both - 1.0).abs() < 1e-12,
        "{win} {lose} {both}"
    );
    assert!(win > 0.5 && win < 33.0 / 36.0, "{win}");
    check(SYS, "boarding", &pairs, "end_phases=1", 33.0 / 36.0);
}

// ------------------------------------------------------------- hit and run

/// "roll a D6. On a score of a 1 the attack has failed, on a 2 or more look
/// up the score on the Critical Hits table": 2-3 Lances Damaged (+0), 4
/// Main Armament (+0), 5 Ordnance Bays (+0), 6 Reactors Damaged (+1).
#[test]
fn hit_and_run_one_attack() {
    let pairs = [("attacks", "1")];
    check(SYS, "hit_and_run", &pairs, "p_any_critical", 5.0 / 6.0);
    check(SYS, "hit_and_run", &pairs, "mean_criticals", 5.0 / 6.0);
    check(SYS, "hit_and_run", &pairs, "mean_extra_damage", 1.0 / 6.0);
    check(SYS, "hit_and_run", &pairs, "p_lances_damaged", 2.0 / 6.0);
    check(SYS, "hit_and_run", &pairs, "p_fire", 0.0);
}

/// "Fleets that benefit from a +1 bonus ... roll a 2 to 7 on a D6, meaning
/// they will never fail": two attacks, each 2-7; 7 is Fire! (+0). "If a
/// critical hit is rolled which cannot be applied ... apply the next
/// highest critical instead": no lances, so 2-3 become Main Armament.
#[test]
fn hit_and_run_plus_one_no_lances() {
    let pairs = [
        ("attacks", "2"),
        ("plus_one_fleet", "true"),
        ("target_no_lances", "true"),
    ];
    check(SYS, "hit_and_run", &pairs, "p_any_critical", 1.0);
    check(SYS, "hit_and_run", &pairs, "mean_extra_damage", 2.0 / 6.0);
    check(
        SYS,
        "hit_and_run",
        &pairs,
        "p_fire",
        1.0 - (5.0f64 / 6.0).powi(2),
    );
    check(SYS, "hit_and_run", &pairs, "p_lances_damaged", 0.0);
    // Main armament on a raw 1, 2 or 3 (scores 2, 3, 4): 1/2 per attack.
    let main = prob(2, 6, |r| r.iter().any(|&f| f <= 3));
    check(SYS, "hit_and_run", &pairs, "p_main_armament_damaged", main);
}

/// "an escort which has suffered critical damage is automatically
/// destroyed": three attacks, destroyed unless all three roll 1.
#[test]
fn hit_and_run_escort() {
    let pairs = [("attacks", "3"), ("target_escort", "true")];
    check(
        SYS,
        "hit_and_run",
        &pairs,
        "p_escort_destroyed",
        1.0 - 1.0 / 216.0,
    );
}
