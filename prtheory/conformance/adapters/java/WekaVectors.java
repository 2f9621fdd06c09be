/*
 * prtheory's conformance vectors read in Java: the server behind the Weka adapter.
 *
 *   java -cp weka.jar WekaVectors.java        (Java 11+ runs the source file directly)
 *
 * Reads one JSON request per line on standard input,
 *   {"id": 1, "fn": "prc_area", "inputs": <a test's "inputs", as in the vector files>},
 * and writes one JSON answer per line on standard output,
 *   {"id": 1, "value": "0.83333333333333337"}
 * (or "error" and "kind" in place of "value"). It ends at the end of its input. The inputs are
 * decoded as prtheory/conformance/vectors/README.md describes: scores and weights are strings
 * holding float64 values ("inf", "-inf" and "nan" included), long inputs are runs
 * [label, score, count(, weight)]. Each item becomes a NominalPrediction with the distribution
 * {1 - score, score}, as a classifier's class probabilities reach Weka's Evaluation, and the
 * positive class is index 1.
 */

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import weka.classifiers.evaluation.NominalPrediction;
import weka.classifiers.evaluation.Prediction;
import weka.classifiers.evaluation.ThresholdCurve;
import weka.core.Instances;

public class WekaVectors {

  /** A minimal JSON reader: objects, arrays, strings, numbers, true, false, null. */
  static final class Json {
    private final String text;
    private int at;

    Json(String text) { this.text = text; }

    Object value() {
      skip();
      char c = text.charAt(at);
      if (c == '{') return object();
      if (c == '[') return array();
      if (c == '"') return string();
      if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
      if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
      if (text.startsWith("null", at)) { at += 4; return null; }
      int start = at;
      while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
      return Double.parseDouble(text.substring(start, at));
    }

    private Map<String, Object> object() {
      Map<String, Object> out = new LinkedHashMap<>();
      at++;
      skip();
      while (text.charAt(at) != '}') {
        String key = string();
        skip();
        at++;  // ':'
        out.put(key, value());
        skip();
        if (text.charAt(at) == ',') { at++; skip(); }
      }
      at++;
      return out;
    }

    private List<Object> array() {
      List<Object> out = new ArrayList<>();
      at++;
      skip();
      while (text.charAt(at) != ']') {
        out.add(value());
        skip();
        if (text.charAt(at) == ',') { at++; skip(); }
      }
      at++;
      return out;
    }

    private String string() {
      StringBuilder out = new StringBuilder();
      at++;
      while (text.charAt(at) != '"') {
        char c = text.charAt(at++);
        if (c == '\\') {
          char e = text.charAt(at++);
          if (e == 'u') { out.append((char) Integer.parseInt(text.substring(at, at + 4), 16)); at += 4; }
          else out.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
        } else {
          out.append(c);
        }
      }
      at++;
      return out.toString();
    }

    private void skip() {
      while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
    }
  }

  /** A float64 written as the vectors write it: a decimal string, "inf", "-inf" or "nan". */
  static double number(Object o) {
    if (o instanceof Boolean) return ((Boolean) o) ? 1 : 0;
    if (o instanceof Double) return (Double) o;
    String s = (String) o;
    if (s.equals("inf")) return Double.POSITIVE_INFINITY;
    if (s.equals("-inf")) return Double.NEGATIVE_INFINITY;
    if (s.equals("nan")) return Double.NaN;
    return Double.parseDouble(s);
  }

  /** The predictions of a test's inputs: (label, score, weight) per item, runs expanded. */
  @SuppressWarnings("unchecked")
  static ArrayList<Prediction> predictions(Map<String, Object> inputs) {
    ArrayList<Prediction> out = new ArrayList<>();
    if (inputs.containsKey("runs")) {
      for (Object o : (List<Object>) inputs.get("runs")) {
        List<Object> run = (List<Object>) o;
        double weight = run.size() == 4 ? number(run.get(3)) : 1.0;
        for (int i = 0; i < (int) number(run.get(2)); i++) {
          out.add(prediction(number(run.get(0)), number(run.get(1)), weight));
        }
      }
      return out;
    }
    List<Object> labels = (List<Object>) inputs.get("y_true");
    List<Object> scores = (List<Object>) inputs.get("y_score");
    List<Object> weights = (List<Object>) inputs.get("sample_weight");
    if (labels.size() != scores.size()) {
      throw new IllegalArgumentException("y_true and y_score differ in length");
    }
    for (int i = 0; i < labels.size(); i++) {
      double weight = weights == null ? 1.0 : number(weights.get(i));
      out.add(prediction(number(labels.get(i)), number(scores.get(i)), weight));
    }
    return out;
  }

  static Prediction prediction(double label, double score, double weight) {
    return new NominalPrediction(label, new double[] {1 - score, score}, weight);
  }

  /** The value of Weka's function ``fn`` on the predictions (positive class index 1). */
  static double evaluate(String fn, ArrayList<Prediction> predictions) {
    Instances curve = new ThresholdCurve().getCurve(predictions, 1);
    return fn.equals("prc_area")
        ? ThresholdCurve.getPRCArea(curve)
        : ThresholdCurve.getROCArea(curve);
  }

  static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  @SuppressWarnings("unchecked")
  static String answer(String line) {
    Map<String, Object> request = (Map<String, Object>) new Json(line).value();
    StringBuilder out = new StringBuilder("{\"id\": " + (long) number(request.get("id")));
    String fn = (String) request.get("fn");
    ArrayList<Prediction> predictions;
    try {  // this server's own decoding: its failures are crashes, never Weka's rejections
      if (!fn.equals("prc_area") && !fn.equals("roc_area")) {
        throw new IllegalStateException("unknown function " + fn);
      }
      predictions = predictions((Map<String, Object>) request.get("inputs"));
    } catch (RuntimeException e) {
      return out.append(", \"error\": ").append(quoted("decoding the request: " + e))
          .append(", \"kind\": \"server\"}").toString();
    }
    try {
      double value = evaluate(fn, predictions);
      out.append(", \"value\": ").append(quoted(String.format("%.17g", value)));
    } catch (IllegalArgumentException e) {
      out.append(", \"error\": ").append(quoted(e.toString())).append(", \"kind\": \"rejected\"");
    } catch (RuntimeException e) {
      out.append(", \"error\": ").append(quoted(e.toString())).append(", \"kind\": \"crashed\"");
    }
    return out.append("}").toString();
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      System.out.println(answer(line));
      System.out.flush();
    }
  }
}
