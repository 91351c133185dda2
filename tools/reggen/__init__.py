"""The register generator's pieces: description loading and validation (desc), and one emitter per
output language (emit_sv: the SystemVerilog package and register blocks, emit_c: the C header and
the C model's register blocks, emit_md: the documentation table). tools/regtool.py drives them."""
