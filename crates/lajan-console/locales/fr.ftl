# La console en français. Chaque clé de en.ftl est ici aussi (un test le vérifie).

console = Console Lajan
sandbox = Bac à sable
live = Production
sandbox-banner = Données de test uniquement : aucun argent réel ne circule ici.
switch-to-live = Passer en production
switch-to-sandbox = Passer au bac à sable
sign-out = Se déconnecter
nav-dashboard = Tableau de bord
nav-approvals = Approbations
nav-invoices = Factures
nav-payouts = Paiements
nav-disbursements = Décaissements
nav-clients = Clients
nav-events = Événements
nav-keys = Clés d'API
nav-users = Utilisateurs
nav-webhooks = Webhooks
nav-settings = Paramètres
nav-audit = Audit
role-viewer = lecteur
role-maker = préparateur
role-approver = approbateur
role-admin = administrateur
sign-in = Se connecter
sign-in-heading = Se connecter à Lajan
email = Adresse e-mail
password = Mot de passe
not-allowed = Non autorisé
role-not-allowed = Votre rôle ({ $role }) ne permet pas cela. Un administrateur de votre organisation peut changer les rôles.
back-to-console = Retour à la console
language = Langue
language-choose = Changer
balances = Soldes
no-trustline = pas de ligne de confiance
waiting-for-approval = En attente d'approbation
nothing-waits = Rien n'attend d'approbation.
item-count = { $count ->
    [one] 1 élément
   *[other] { $count } éléments
}
payouts-in-asset = { $count ->
    [one] 1 en { $asset }
   *[other] { $count } en { $asset }
}
sent-count = { $count ->
    [one] 1 envoyé
   *[other] { $count } envoyés
}
paid-out-in = Payé en { $month } { $year }
none-sent-this-month = Aucun paiement envoyé ce mois-ci.
recent-events = Événements récents
all-events = Tous les événements
no-events-yet = Aucun événement pour l'instant.
month-01 = janvier
month-02 = février
month-03 = mars
month-04 = avril
month-05 = mai
month-06 = juin
month-07 = juillet
month-08 = août
month-09 = septembre
month-10 = octobre
month-11 = novembre
month-12 = décembre
second-person-required = Cette organisation exige une deuxième personne : personne n'approuve ce qu'il a créé ou soumis.
balance-check = Vérification du solde
asset = Actif
waiting = En attente
balance = Solde
covered = couvert
short = insuffisant
unknown = inconnu
oldest-shown = Les { $count } plus anciens sont affichés ;
all-of-them = voir tout.
amount = Montant
to = Destinataire
memo = Mémo
created = Créé le
decision = Décision
name = Nom
items = Éléments
total = Total
no-payouts-waiting = Aucun paiement n'attend d'approbation.
no-disbursements-waiting = Aucun décaissement n'attend d'approbation.
approve = Approuver
reject = Rejeter
reason-optional = Motif (facultatif)
reason-for-rejecting = Motif du rejet
refusal-own-payout = Vous avez créé ce paiement ; cette organisation exige qu'une autre personne l'approuve.
refusal-own-disbursement = Vous avez créé ou soumis ce décaissement ; cette organisation exige qu'une autre personne l'approuve.
new-payout = Nouveau paiement
client = Client
no-client-pay-wallet = Aucun : payer le portefeuille ci-dessous
or-wallet = Ou une adresse de portefeuille
memo-optional-28 = Mémo (facultatif, 28 caractères au plus)
create-payout = Créer le paiement
waits-for-approver = Il attend un approbateur quand les paramètres de l'organisation demandent une approbation.
new-disbursement = Nouveau décaissement
nothing-stored = Rien n'a été enregistré
correct-rows = Corrigez ces lignes dans le fichier et téléversez-le à nouveau.
row = Ligne
field = Champ
what-is-wrong = Problème
batch-name-example = Allocations de juin
spreadsheet-csv = Tableur (CSV)
upload = Téléverser
csv-help = Une ligne d'en-tête nommant des colonnes parmi { $columns } (avec assetAmount, et clientId ou walletAccountId), puis un paiement par ligne ; 10 000 lignes au plus. Le brouillon n'est enregistré que si toutes les lignes sont correctes.
