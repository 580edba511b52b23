"""Cognes, as the rules window tells it (both languages), with one figure per rule.

Coins are placed in table units (0.1 mm; a coin's radius is 120, the middle coin sits at the
origin); directions are in half degrees (540 = straight down).  ``cognes_figure`` checks
each flip with the engine.
"""

from __future__ import annotations

from ui.rules import Figure, GameRules, Section, Text
from ui.rules.cognes_figures import cognes_figure

RULES = GameRules(
    game="cognes",
    name=Text("Cognes", "Cognes"),
    intro=Text(
        en="Coins on a table: one in the middle that never moves, the others on a circle "
        "around it. Flip a coin over its edge toward the middle, and never make two coins "
        "touch. Whoever makes the last legal flip wins.",
        fr="Des pièces de monnaie sur une table : une au milieu qui ne bouge jamais, les "
        "autres en cercle autour. Retournez une pièce sur sa tranche vers le milieu, sans "
        "jamais faire se toucher deux pièces. Celui qui fait le dernier retournement permis "
        "gagne.",
    ),
    sections=(
        Section(
            Text("A flip", "Un retournement"),
            Text(
                en="On your turn, flip one coin that is not frozen (any coin, whoever moved it "
                "before): it rolls over its edge and lands one diameter further, in the "
                "direction you choose. The flip must bring it <b>at least 5 mm closer</b> to the "
                "middle: its landing must fall inside the dotted circle. On the table, drag "
                "from a coin toward the middle to aim; the ghost shows where it lands.",
                fr="À votre tour, retournez une pièce qui n'est pas gelée (n'importe laquelle, "
                "peu importe qui l'a jouée avant) : elle bascule sur sa tranche et retombe un "
                "diamètre plus loin, dans la direction choisie. Le retournement doit la "
                "rapprocher du milieu d'<b>au moins 5 mm</b> : elle doit retomber dans le "
                "cercle pointillé. Sur la table, tirez depuis une pièce vers le milieu pour "
                "viser ; le fantôme montre où elle retombe.",
            ),
            (
                Figure(
                    Text(
                        "Coin 0 flipped straight toward the middle: it lands 24 mm closer, "
                        "inside the dotted circle, touching nothing. A legal flip.",
                        "La pièce 0 retournée droit vers le milieu : elle retombe 24 mm plus "
                        "près, dans le cercle pointillé, sans rien toucher. Coup permis.",
                    ),
                    lambda: cognes_figure(((0, 700), (-480, 420)), (0, 540), "legal"),
                ),
                Figure(
                    Text(
                        "Flipped almost sideways, it would come only 4.2 mm closer: not "
                        "enough, the flip cannot be played.",
                        "Retournée presque de côté, elle ne se rapprocherait que de 4,2 mm : "
                        "pas assez, le coup est impossible.",
                    ),
                    lambda: cognes_figure(((0, 700), (-480, 420)), (0, 400), "short"),
                ),
            ),
        ),
        Section(
            Text("Fouls", "Les fautes"),
            Text(
                en="A flip that lands touching another coin (the middle coin included) is a "
                "<b>foul</b>. You may play it, after a confirmation, but you are then <b>out of "
                "the game</b>, and the coin you flipped and every coin it touches "
                "<b>freeze</b>: they never move again.",
                fr="Un retournement qui retombe en touchant une autre pièce (celle du milieu "
                "comprise) est une <b>faute</b>. Vous pouvez la jouer, après confirmation, mais "
                "vous êtes alors <b>éliminé</b>, et la pièce retournée ainsi que toutes celles "
                "qu'elle touche <b>gèlent</b> : elles ne bougeront plus.",
            ),
            (
                Figure(
                    Text(
                        "Coin 0 would land touching coin 1: a foul (red).",
                        "La pièce 0 retomberait en touchant la pièce 1 : une faute (en rouge).",
                    ),
                    lambda: cognes_figure(((0, 700), (-200, 400)), (0, 540), "foul"),
                ),
                Figure(
                    Text(
                        "After the foul: coins 0 and 1 are frozen (the frost) and stay as "
                        "obstacles; the player who fouled is out.",
                        "Après la faute : les pièces 0 et 1 sont gelées (le givre) et restent "
                        "comme obstacles ; le joueur fautif est éliminé.",
                    ),
                    lambda: cognes_figure(((0, 700), (-200, 400)), (0, 540), "foul", after=True),
                ),
            ),
        ),
        Section(
            Text("End of the game", "Fin de la partie"),
            Text(
                en="When no coin can be flipped legally any more, the player who made the "
                "<b>last legal flip</b> wins (a foul is not a legal flip). If only one player is "
                "left in the game, that player wins. A player may resign at any moment; a draw "
                "needs everyone still in.",
                fr="Quand plus aucune pièce ne peut être retournée sans faute, le joueur qui a "
                "fait le <b>dernier retournement permis</b> gagne (une faute n'en est pas un). "
                "S'il ne reste qu'un joueur en jeu, il gagne. On peut abandonner à tout moment ; "
                "une nulle demande l'accord de tous ceux encore en jeu.",
            ),
        ),
    ),
)
