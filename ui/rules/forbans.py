"""Les Forbans, as the rules window tells it (both languages), with one figure per rule.

Figures use a toy map of twelve ports A–L (``forbans_figures``); positions are tokens
``A+2`` (two Bleu pieces on A) and ``B-1`` (one Vert piece on B).
"""

from __future__ import annotations

from ui.rules import Figure, GameRules, Section, Text
from ui.rules.forbans_figures import forbans_figure

RULES = GameRules(
    game="forbans",
    name=Text("Les Forbans", "Les Forbans"),
    intro=Text(
        en="Two fleets of pirates, <b>Bleu</b> and <b>Vert</b>, six pieces each, on a map of "
        "17th-century ports joined by routes. Trap an enemy group so it has no free port "
        "around it, or gather your six pieces on one port.",
        fr="Deux flottes de pirates, <b>Bleu</b> et <b>Vert</b>, six pièces chacune, sur une "
        "carte de ports du XVII<sup>e</sup> siècle reliés par des routes. Coincez un groupe "
        "ennemi sans aucun port libre autour de lui, ou rassemblez vos six pièces sur un "
        "seul port.",
    ),
    sections=(
        Section(
            Text("Setting up", "La mise en place"),
            Text(
                en="The sides take turns putting pieces on the map, one at a time, and each "
                "side places <b>the other side's</b> pieces: Bleu puts down a Vert piece, then "
                "Vert a Bleu piece, twelve times. A piece never goes on a port held by its "
                "enemies, and every group must keep at least two free ports. Vert, who placed "
                "last, moves first.",
                fr="Chacun à son tour pose une pièce sur la carte, et chaque camp place les "
                "pièces <b>de l'autre</b> : Bleu pose une pièce verte, puis Vert une pièce "
                "bleue, douze fois en tout. Une pièce ne va jamais sur un port tenu par ses "
                "ennemis, et chaque groupe doit garder au moins deux ports libres. Vert, qui a "
                "posé en dernier, joue le premier coup.",
            ),
        ),
        Section(
            Text("Moving", "Se déplacer"),
            Text(
                en="On your turn, move one of your pieces along one route to the next port, "
                "which must hold no enemy piece; it may join your own. Any number of your "
                "pieces may share a port (the number on the disc). You cannot pass.",
                fr="À votre tour, déplacez une de vos pièces le long d'une route jusqu'au port "
                "voisin, qui ne doit contenir aucune pièce ennemie ; elle peut y rejoindre les "
                "vôtres. Autant de vos pièces que vous voulez peuvent partager un port (le "
                "nombre sur le disque). On ne peut pas passer.",
            ),
        ),
        Section(
            Text("Groups and free ports", "Groupes et ports libres"),
            Text(
                en="Your pieces on ports joined by a route form one <b>group</b>. The empty "
                "ports one route away from a group are its <b>free ports</b> (liberties). A "
                "group with a single free port left is in danger: the table rings it in dashed "
                "red.",
                fr="Vos pièces sur des ports reliés par une route forment un <b>groupe</b>. Les "
                "ports vides à une route d'un groupe sont ses <b>ports libres</b> (libertés). "
                "Un groupe à qui il ne reste qu'un port libre est en danger : la table l'entoure "
                "de tirets rouges.",
            ),
            (
                Figure(
                    Text(
                        "Bleu's group on F and G (three pieces) has four free ports: C, E, H "
                        "and J (the green dots). B and K hold Vert pieces.",
                        "Le groupe bleu en F et G (trois pièces) a quatre ports libres : C, E, "
                        "H et J (les points verts). B et K portent des pièces vertes.",
                    ),
                    lambda: forbans_figure("F+2 G+1 B-1 K-1", liberties_of="F"),
                ),
                Figure(
                    Text(
                        "Bleu's group on A and E has one free port left, I: it is in danger.",
                        "Le groupe bleu en A et E n'a plus qu'un port libre, I : il est en danger.",
                    ),
                    lambda: forbans_figure("A+1 E+1 L+4 B-1 F-2 J-3", show_danger=True),
                ),
            ),
        ),
        Section(
            Text("Winning", "Gagner"),
            Text(
                en="After your move you win by <b>encirclement</b> if an enemy group has no "
                "free port left, or by <b>gathering</b> if all six of your pieces stand on one "
                "port. A side that cannot move loses. <b>No suicide</b>: a move that leaves one "
                "of your own groups without a free port is forbidden, unless it wins.",
                fr="Après votre coup, vous gagnez par <b>encerclement</b> si un groupe ennemi "
                "n'a plus aucun port libre, ou par <b>rassemblement</b> si vos six pièces sont "
                "sur un même port. Un camp qui ne peut plus bouger perd. <b>Pas de suicide</b> : "
                "un coup qui laisse un de vos groupes sans port libre est interdit, sauf s'il "
                "gagne.",
            ),
            (
                Figure(
                    Text(
                        "Vert moves from J to I: Bleu's group A–E has no free port left. Vert "
                        "wins by encirclement.",
                        "Vert va de J en I : le groupe bleu A–E n'a plus de port libre. Vert "
                        "gagne par encerclement.",
                    ),
                    lambda: forbans_figure(
                        "A+1 E+1 L+4 B-1 F-2 J-3", move="J I", expect="encirclement"
                    ),
                ),
                Figure(
                    Text(
                        "Bleu brings its sixth piece from H to G: all six on one port, Bleu "
                        "wins by gathering.",
                        "Bleu amène sa sixième pièce de H en G : les six sur un même port, Bleu "
                        "gagne par rassemblement.",
                    ),
                    lambda: forbans_figure(
                        "G+5 H+1 A-3 I-3", mover="bleu", move="H G", expect="gathering"
                    ),
                ),
                Figure(
                    Text(
                        "Forbidden: from A to E would leave Bleu's group A–E with no free port "
                        "(B, F and I are Vert's), and it wins nothing.",
                        "Interdit : aller de A en E laisserait le groupe bleu A–E sans port "
                        "libre (B, F et I sont à Vert), sans rien gagner.",
                    ),
                    lambda: forbans_figure(
                        "A+2 L+4 B-1 F-1 I-1 K-3", mover="bleu", move="A E", expect="illegal"
                    ),
                ),
            ),
        ),
        Section(
            Text("Draws, teams", "Nulles, équipes"),
            Text(
                en="The game is drawn when a position comes back for the third time, after the "
                "move limit (400 moves by default), or by agreement. With three to six players, "
                "odd seats play Bleu and even seats Vert, taking the side's turns in order; "
                "team-mates may not talk during the game.",
                fr="La partie est nulle quand une position revient pour la troisième fois, "
                "après la limite de coups (400 par défaut), ou d'un commun accord. De trois à "
                "six joueurs, les sièges impairs jouent Bleu et les pairs Vert, chacun jouant à "
                "son tour les coups de son camp ; les coéquipiers ne se parlent pas pendant la "
                "partie.",
            ),
        ),
    ),
)
