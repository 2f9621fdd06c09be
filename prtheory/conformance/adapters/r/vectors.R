# prtheory's conformance vectors read in R: the server behind the R packages' adapters.
#
#   Rscript vectors.R PACKAGE        (PACKAGE: ROCR, pROC, MLmetrics or Metrics)
#
# Loads PACKAGE once, then reads one JSON request per line on standard input,
#   {"id": 1, "fn": "aucpr", "inputs": <a test's "inputs", as in the vector files>},
# and writes one JSON answer per line on standard output,
#   {"id": 1, "value": "0.83333333333333337"}
# (or "error" and "kind" in place of "value": "rejected" where the package stopped, "crashed"
# where it returned no single number, "server" where this script failed to decode the request;
# "warnings" lists R's warnings). It ends at the end of its input. The inputs are decoded as prtheory/conformance/vectors/README.md describes:
# scores and weights are strings holding float64 values ("inf", "-inf" and "nan" included),
# long inputs are runs [label, score, count(, weight)]. An input of more than 1000 items may come
# as a file instead, {"binary": PATH, "n": N, "weighted": false, "params": {}}: N labels, N scores
# (and N weights) as little-endian float64 values, one after another.

suppressPackageStartupMessages(library(jsonlite))
package <- commandArgs(trailingOnly = TRUE)[1]
suppressPackageStartupMessages(library(package, character.only = TRUE))

as_number <- function(x) as.numeric(unlist(x))

decode_inputs <- function(inputs) {
  if (!is.null(inputs$binary)) {
    n <- inputs$n
    k <- if (isTRUE(inputs$weighted)) 3 else 2
    v <- readBin(inputs$binary, "double", n = k * n, size = 8, endian = "little")
    return(list(y = v[1:n], s = v[(n + 1):(2 * n)],
                w = if (k == 3) v[(2 * n + 1):(3 * n)] else NULL, params = inputs$params))
  }
  if (!is.null(inputs$runs)) {
    column <- function(i) vapply(inputs$runs, function(run) as.numeric(run[[i]]), 0)
    counts <- column(3)
    weighted <- length(inputs$runs[[1]]) == 4
    return(list(y = rep(column(1), counts), s = rep(column(2), counts),
                w = if (weighted) rep(column(4), counts) else NULL, params = inputs$params))
  }
  w <- if (is.null(inputs$sample_weight)) NULL else as_number(inputs$sample_weight)
  list(y = as_number(inputs$y_true), s = as_number(inputs$y_score), w = w,
       params = inputs$params)
}

# the items in ranked order: decreasing score, ties in input order (a stable sort)
ranked <- function(x) order(x$s, decreasing = TRUE, method = "radix")
relevant <- function(x) {
  level <- if (is.null(x$params$relevant_at)) 1 else as.numeric(x$params$relevant_at)
  which(x$y >= level)
}

functions <- list(
  ROCR = list(
    aucpr = function(x) performance(prediction(x$s, x$y), "aucpr")@y.values[[1]],
    auc = function(x) performance(prediction(x$s, x$y), "auc")@y.values[[1]]
  ),
  pROC = list(
    auc = function(x) as.numeric(auc(roc(x$y, x$s, quiet = TRUE))),
    auc_increasing = function(x) as.numeric(auc(
      roc(x$y, x$s, levels = c(0, 1), direction = "<", quiet = TRUE))),
    partial_auc = function(x) as.numeric(auc(
      roc(x$y, x$s, levels = c(0, 1), direction = "<", quiet = TRUE),
      partial.auc = c(1, 1 - as.numeric(x$params$max_fpr)),
      partial.auc.focus = "specificity", partial.auc.correct = TRUE)),
    partial_auc_allow_invalid = function(x) as.numeric(auc(
      roc(x$y, x$s, levels = c(0, 1), direction = "<", quiet = TRUE),
      partial.auc = c(1, 1 - as.numeric(x$params$max_fpr)),
      partial.auc.focus = "specificity", partial.auc.correct = TRUE,
      allow.invalid.partial.auc.correct = TRUE))
  ),
  MLmetrics = list(
    PRAUC = function(x) PRAUC(y_pred = x$s, y_true = x$y),
    AUC = function(x) MLmetrics::AUC(y_pred = x$s, y_true = x$y)
  ),
  Metrics = list(
    auc = function(x) Metrics::auc(actual = x$y, predicted = x$s),
    apk = function(x) apk(as.numeric(x$params$k), relevant(x), ranked(x)),
    mapk = function(x) mapk(as.numeric(x$params$k), list(relevant(x)), list(ranked(x)))
  )
)[[package]]

answer <- function(request) {
  warned <- character(0)
  # this server's own work: a failure here is no answer of the package ("kind": "server")
  fn <- functions[[request$fn]]
  x <- tryCatch(decode_inputs(request$inputs), error = function(e) e)
  if (is.null(fn) || inherits(x, "error")) {
    message <- if (is.null(fn)) paste("unknown function", request$fn) else conditionMessage(x)
    return(list(id = request$id, error = paste("decoding the request:", message),
                kind = "server", warnings = I(character(0))))
  }
  out <- tryCatch(
    withCallingHandlers({
      value <- fn(x)
      if (!is.numeric(value) || length(value) != 1) stop("prtheory-crash: no single number")
      list(value = sprintf("%.17g", value))
    }, warning = function(w) {
      warned <<- c(warned, conditionMessage(w))
      invokeRestart("muffleWarning")
    }),
    error = function(e) {
      message <- conditionMessage(e)
      kind <- if (startsWith(message, "prtheory-crash")) "crashed" else "rejected"
      list(error = message, kind = kind)
    })
  c(list(id = request$id), out, list(warnings = I(warned)))
}

input <- file("stdin", open = "r")
while (length(line <- readLines(input, n = 1)) > 0) {
  reply <- answer(fromJSON(line, simplifyVector = FALSE))
  cat(toJSON(reply, auto_unbox = TRUE, digits = NA), "\n", sep = "")
  flush(stdout())
}
