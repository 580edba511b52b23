"""Consensus, as the rules window tells it (both languages), with one figure per piece/action.

Positions are tokens ``<letter><seat><square>`` (``P1c3``: seat 1's Président on c3; lower
case: a corpse); seat 1 (red) is always the one moving.  ``move_figure`` checks every move
with the engine.
"""

from __future__ import annotations

from ui.rules import Figure, GameRules, Section, Text
from ui.rules.consensus_figures import move_figure

RULES = GameRules(
    game="consensus",
    name=Text("Consensus", "Consensus"),
    intro=Text(
        en="Four players, a 9 × 9 board, and one square that matters: <b>e5, the Pouvoir</b>. "
        "Put your Président there and keep it there until every other player has had a turn, "
        "or be the last Président alive.",
        fr="Quatre joueurs, un plateau de 9 × 9 et une case qui compte : <b>e5, le Pouvoir</b>. "
        "Installez-y votre Président et gardez-le jusqu'à ce que chaque autre joueur ait joué "
        "un tour, ou soyez le dernier Président en vie.",
    ),
    sections=(
        Section(
            Text("The pieces", "Les pièces"),
            Text(
                en="Each player starts in a corner with nine pieces: a <b>Président</b> (P), a "
                "<b>GIGN</b> (G), a <b>Haussaire</b> (H), a <b>Fonctionnaire</b> (F), a "
                "<b>Coutumier</b> (C) and four <b>Syndicalistes</b> (S). Seats play in turn "
                "1, 2, 3, 4. A killed piece becomes a <b>corpse</b> (a dark crossed tile): it "
                "belongs to nobody, never leaves the board and only blocks the way. You never "
                "kill or move your own pieces.",
                fr="Chaque joueur part d'un coin avec neuf pièces : un <b>Président</b> (P), un "
                "<b>GIGN</b> (G), un <b>Haussaire</b> (H), un <b>Fonctionnaire</b> (F), un "
                "<b>Coutumier</b> (C) et quatre <b>Syndicalistes</b> (S). Les sièges jouent "
                "dans l'ordre 1, 2, 3, 4. Une pièce tuée devient un <b>cadavre</b> (une case "
                "sombre barrée) : il n'appartient à personne, ne quitte jamais le plateau et ne "
                "fait que barrer le chemin. On ne tue ni ne déplace jamais ses propres pièces.",
            ),
        ),
        Section(
            Text("Moving", "Se déplacer"),
            Text(
                en="Every piece moves like a chess queen: in a straight line along a row, a "
                "column or a diagonal, over empty squares only, never jumping. A Syndicaliste "
                "goes one or two squares. Anyone may <b>cross</b> an empty e5, but only a "
                "Président may <b>stop</b> there. A move is complete only once every choice is "
                "made (where a corpse goes, and so on); the board asks for each one.",
                fr="Toutes les pièces se déplacent comme la dame aux échecs : en ligne droite, "
                "sur une rangée, une colonne ou une diagonale, uniquement sur des cases vides, "
                "sans jamais sauter. Un Syndicaliste avance d'une ou deux cases. Tout le monde "
                "peut <b>traverser</b> e5 quand elle est vide, mais seul un Président peut "
                "s'y <b>arrêter</b>. Un coup n'est complet qu'une fois tous ses choix faits "
                "(où va le cadavre, etc.) ; le plateau les demande un par un.",
            ),
            (
                Figure(
                    Text(
                        "Where the Président on c3 may go: the dots. It can stop on e5 and "
                        "land on the enemy on f6; its own Syndicaliste blocks the column.",
                        "Les cases du Président en c3 : les points. Il peut s'arrêter sur e5 "
                        "et se poser sur l'ennemi en f6 ; son propre Syndicaliste lui barre "
                        "la colonne.",
                    ),
                    lambda: move_figure(
                        "P1c3 S1c5 S2f6 g3e3 P2h8", "c3", view="a1:g7", choices_after=1
                    ),
                ),
                Figure(
                    Text(
                        "A Syndicaliste goes one or two squares; here it may also kill the "
                        "enemy GIGN on d4.",
                        "Un Syndicaliste avance d'une ou deux cases ; ici il peut aussi tuer "
                        "le GIGN ennemi en d4.",
                    ),
                    lambda: move_figure("S1c3 C1c4 G2d4 P2h8", "c3", view="a1:f6", choices_after=1),
                ),
            ),
        ),
        Section(
            Text(
                "Président and Syndicaliste: kill, then place the corpse",
                "Président et Syndicaliste : tuer, puis placer le cadavre",
            ),
            Text(
                en="They land on an enemy piece and kill it; you then put the corpse on "
                "<b>any empty square except e5</b>, the square just left included. A "
                "Syndicaliste can never attack the Président in power on e5.",
                fr="Ils se posent sur une pièce ennemie et la tuent ; vous placez ensuite le "
                "cadavre sur <b>n'importe quelle case vide sauf e5</b>, y compris la case "
                "qu'ils viennent de quitter. Un Syndicaliste ne peut jamais attaquer le "
                "Président au Pouvoir en e5.",
            ),
            (
                Figure(
                    Text(
                        "The Président crosses e5 and kills on f6; the dots are where the corpse "
                        "may go (never e5). Here it goes to b6.",
                        "Le Président traverse e5 et tue en f6 ; les points montrent où le "
                        "cadavre peut aller (jamais en e5). Ici, en b6.",
                    ),
                    lambda: move_figure(
                        "P1c3 S2f6 F2g7 P2h8", "c3 f6 b6", view="a1:h8", choices_after=2
                    ),
                ),
            ),
        ),
        Section(
            Text(
                "GIGN: the corpse falls where it came from", "GIGN : le cadavre tombe d'où il vient"
            ),
            Text(
                en="The GIGN lands on an enemy piece and kills it; the corpse goes to the "
                "square the GIGN came from. Nothing to choose.",
                fr="Le GIGN se pose sur une pièce ennemie et la tue ; le cadavre va sur la case "
                "d'où venait le GIGN. Rien à choisir.",
            ),
            (
                Figure(
                    Text(
                        "The GIGN on b2 kills the Haussaire on b6; the corpse lands on b2.",
                        "Le GIGN en b2 tue le Haussaire en b6 ; le cadavre tombe en b2.",
                    ),
                    lambda: move_figure("G1b2 H2b6 P2h8", "b2 b6", view="a1:e7"),
                ),
            ),
        ),
        Section(
            Text(
                "Haussaire: move, then kill a neighbour", "Haussaire : bouger, puis tuer un voisin"
            ),
            Text(
                en="The Haussaire moves to an <b>empty</b> square, then may kill one enemy on a "
                "square touching its new square by a side (up to four). The corpse stays where "
                "it is. Killing is optional (the <i>No kill</i> button, or click the Haussaire).",
                fr="Le Haussaire va sur une case <b>vide</b>, puis peut tuer un ennemi sur une "
                "case qui touche sa nouvelle case par un côté (quatre au plus). Le cadavre reste "
                "sur place. Tuer est facultatif (le bouton <i>Ne pas tuer</i>, ou un clic sur le "
                "Haussaire).",
            ),
            (
                Figure(
                    Text(
                        "The Haussaire goes from b2 to d4; it may then kill on d5 or e4 (the "
                        "dots), not its own piece on c4. It kills on d5.",
                        "Le Haussaire va de b2 en d4 ; il peut alors tuer en d5 ou en e4 (les "
                        "points), pas sa propre pièce en c4. Il tue en d5.",
                    ),
                    lambda: move_figure(
                        "H1b2 S1c4 S2d5 G3e4 P2h8", "b2 d4 d5", view="a1:f6", choices_after=2
                    ),
                ),
            ),
        ),
        Section(
            Text(
                "Fonctionnaire: displace a living piece",
                "Fonctionnaire : déplacer une pièce vivante",
            ),
            Text(
                en="The Fonctionnaire lands on a living enemy piece and moves it, <b>alive</b>, "
                "to any empty square (its own old square included). Only a Président may be put "
                "on e5: putting an enemy Président there hands that player the Pouvoir.",
                fr="Le Fonctionnaire se pose sur une pièce ennemie vivante et la déplace, "
                "<b>vivante</b>, sur n'importe quelle case vide (y compris celle qu'il quitte). "
                "Seul un Président peut être posé en e5 : y mettre un Président ennemi donne "
                "le Pouvoir à ce joueur.",
            ),
            (
                Figure(
                    Text(
                        "The Fonctionnaire on c2 lands on the GIGN on c6 and sends it, alive, "
                        "to g8; the dots are every square it could have chosen.",
                        "Le Fonctionnaire en c2 se pose sur le GIGN en c6 et l'envoie, vivant, "
                        "en g8 ; les points sont toutes les cases possibles.",
                    ),
                    lambda: move_figure(
                        "F1c2 G2c6 S2e7 P2h8", "c2 c6 g8", view="a1:h8", choices_after=2
                    ),
                ),
            ),
        ),
        Section(
            Text("Coutumier: carry a corpse", "Coutumier : porter un cadavre"),
            Text(
                en="The Coutumier is the only piece that can move a corpse: it lands on one (of "
                "any colour) and puts it on any empty square except e5. It never lands on a "
                "living piece.",
                fr="Le Coutumier est la seule pièce qui peut déplacer un cadavre : il se pose "
                "dessus (quelle qu'en soit la couleur) et le dépose sur n'importe quelle case "
                "vide sauf e5. Il ne se pose jamais sur une pièce vivante.",
            ),
            (
                Figure(
                    Text(
                        "The Coutumier on c3 takes the corpse on f3 and carries it to a6.",
                        "Le Coutumier en c3 prend le cadavre en f3 et le porte en a6.",
                    ),
                    lambda: move_figure(
                        "C1c3 s2f3 P2h8", "c3 f3 a6", view="a1:g7", choices_after=2
                    ),
                ),
            ),
        ),
        Section(
            Text("The Pouvoir (e5)", "Le Pouvoir (e5)"),
            Text(
                en="A living Président on e5 is <b>in power</b> and its player is the "
                "<b>ruler</b>. The ruler plays an <b>extra move</b> after each turn of another "
                "player, and <b>wins</b> once every other player still in has had a turn that "
                "began after it took power. To stop it:"
                "<ul><li>a <b>Président</b> lands on it, kills it and stays, taking power;</li>"
                "<li>a <b>GIGN</b> kills it (corpse to the GIGN's square), then must "
                "<b>leave e5</b> by a straight move to an empty square;</li>"
                "<li>a <b>Fonctionnaire</b> displaces it alive, then must leave e5;</li>"
                "<li>a <b>Haussaire</b> next to e5 kills it: the corpse stays on e5 and blocks "
                "it until a <b>Coutumier</b> carries it away and leaves e5 in the same move."
                "</li></ul>A Syndicaliste can do nothing against the ruler.",
                fr="Un Président vivant en e5 est <b>au Pouvoir</b> et son joueur <b>règne</b>. "
                "Celui qui règne joue un <b>coup supplémentaire</b> après chaque tour d'un autre "
                "joueur, et <b>gagne</b> dès que chaque autre joueur encore en jeu a eu un tour "
                "commencé après sa prise de pouvoir. Pour l'arrêter :"
                "<ul><li>un <b>Président</b> se pose sur lui, le tue et reste : il prend le "
                "Pouvoir ;</li>"
                "<li>un <b>GIGN</b> le tue (cadavre sur la case du GIGN), puis doit "
                "<b>quitter e5</b> en ligne droite vers une case vide ;</li>"
                "<li>un <b>Fonctionnaire</b> le déplace vivant, puis doit quitter e5 ;</li>"
                "<li>un <b>Haussaire</b> voisin de e5 le tue : le cadavre reste en e5 et la "
                "bloque jusqu'à ce qu'un <b>Coutumier</b> l'emporte et quitte e5 dans le même "
                "coup.</li></ul>Un Syndicaliste ne peut rien contre celui qui règne.",
            ),
            (
                Figure(
                    Text(
                        "Taking power: the Président goes from c3 to e5. The GIGN on a5 may "
                        "cross e5 (the dots) but not stop there.",
                        "Prendre le Pouvoir : le Président va de c3 en e5. Le GIGN en a5 peut "
                        "traverser e5 (les points) mais pas s'y arrêter.",
                    ),
                    lambda: move_figure(
                        "P1c3 G1a5 S2h5 P2h8", "c3 e5", view="a1:i7", choices_of="a5"
                    ),
                ),
                Figure(
                    Text(
                        "The GIGN on e2 kills the ruler: the corpse falls on e2, and the GIGN "
                        "must leave e5 (the dots are its exits). It leaves to c7.",
                        "Le GIGN en e2 tue celui qui règne : le cadavre tombe en e2, et le GIGN "
                        "doit quitter e5 (les points sont ses sorties). Il sort en c7.",
                    ),
                    lambda: move_figure(
                        "G1e2 P2e5 S2d7 S3f4", "e2 e5 c7", view="a1:h8", choices_after=2
                    ),
                ),
                Figure(
                    Text(
                        "The Haussaire goes to e6 and kills the ruler; the corpse stays on e5 "
                        "and nobody rules.",
                        "Le Haussaire va en e6 et tue celui qui règne ; le cadavre reste en e5 "
                        "et plus personne ne règne.",
                    ),
                    lambda: move_figure(
                        "H1b6 P2e5 S3f4", "b6 e6 e5", view="a2:g8", choices_after=2
                    ),
                ),
                Figure(
                    Text(
                        "The Coutumier clears e5: it takes the corpse, puts it on a5, then "
                        "leaves e5 (the dots) to g7.",
                        "Le Coutumier dégage e5 : il prend le cadavre, le pose en a5, puis "
                        "quitte e5 (les points) vers g7.",
                    ),
                    lambda: move_figure(
                        "C1c3 p2e5 S3f4 P2h8", "c3 e5 a5 g7", view="a1:h8", choices_after=3
                    ),
                ),
            ),
        ),
        Section(
            Text("Taking over", "Prendre le contrôle"),
            Text(
                en="Kill a Président and you take over its pieces (and every seat its player "
                "controlled): you play them on their own turns, as well as yours. A turn whose "
                "pieces cannot move passes by itself.",
                fr="Tuez un Président et vous prenez le contrôle de ses pièces (et de tous les "
                "sièges que son joueur contrôlait) : vous les jouez à leur tour, en plus du "
                "vôtre. Un tour dont les pièces ne peuvent pas bouger passe tout seul.",
            ),
        ),
        Section(
            Text("End of the game", "Fin de la partie"),
            Text(
                en="You win when your Président is the last one alive, or by holding power "
                "(above). The game is drawn when a whole round passes with nobody able to move, "
                "after 150 moves in a row without a kill, or when everyone agrees. A player who "
                "resigns turns its Président into a corpse; its other pieces become neutral: "
                "they never move again and anyone may kill them.",
                fr="Vous gagnez quand votre Président est le dernier en vie, ou en tenant le "
                "Pouvoir (ci-dessus). La partie est nulle quand tout un tour passe sans que "
                "personne ne puisse jouer, après 150 coups de suite sans mort, ou quand tout le "
                "monde est d'accord. Un joueur qui abandonne change son Président en cadavre ; "
                "ses autres pièces deviennent neutres : elles ne bougent plus et chacun peut "
                "les tuer.",
            ),
        ),
    ),
)
