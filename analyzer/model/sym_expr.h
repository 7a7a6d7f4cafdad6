// Evaluates the sympy expressions Dynamo prints for symbolic floats and ints in graph annotations,
// `Sym(-(FloatTrueDiv(0.001, 1.0 - FloatPow(0.9, zf2))))`, at given symbol values (the hints from
// create_symbol). Used to recognise a constant in compiled code as the value of such an expression at
// the hint: a literal baked from a dynamic scalar.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ilint {

// Value of `expr` with `symbols` bound; nullopt when the text is not understood or a symbol is unbound.
// Understood: numbers, symbols, + - * / ** and unary -, parentheses, FloatPow, PowByNatural, FloatTrueDiv,
// IntTrueDiv, TruncToFloat, ToFloat, Max, Min, Abs, sqrt, OpaqueUnaryFn_sqrt, exp, log.
std::optional<double> eval_sym_expr(const std::string& expr, const std::map<std::string, double>& symbols);

// The symbols an expression names (zf2, s33, ...).
std::vector<std::string> sym_expr_symbols(const std::string& expr);

}  // namespace ilint
