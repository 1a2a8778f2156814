# A thing made outside the client whose name (its identity) holds < > &, imported by the captured step.
mkdir -p things/z1
printf '{"value":"made outside"}\n' > 'things/z1/a<b>&c.json'
