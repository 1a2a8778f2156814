# a is tainted: the next plan replaces it, and destroy = false makes the replacement create-then-forget.
"$TFWIRE_CLIENT" taint -no-color -lock=false tfwire_item.a
