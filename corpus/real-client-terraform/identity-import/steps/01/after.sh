# Two things made outside the client: alpha in the default zone, beta in zone z2.
mkdir -p things/z1 things/z2
printf '{"value":"made outside","labels":{"origin":"shell"}}\n' > things/z1/alpha.json
printf '{"value":"beta outside"}\n' > things/z2/beta.json
