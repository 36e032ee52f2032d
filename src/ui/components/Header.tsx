export function Header() {
  return (
    <header className="header">
      <h1>SeeUPO explorer</h1>
      <p>
        <strong>What am I looking at?</strong> Nine policy-gradient algorithms (REINFORCE, RLOO, GRPO, PPO with two
        advantage estimators, GSPO, and SeeUPO with three turn orders) each train a small policy (a table, or an MLP on the tensor executor) on a
        multi-turn bandit. Every line is the true expected return J of the current policy after each update,
        averaged over the seeds; the dashed line is the best achievable return J*. Lines that reach it found the
        optimum, lines that level off below it got stuck in a local optimum, and dips are breaks in monotonic
        improvement. Press Run: everything is computed in your browser, in Web Workers.
      </p>
    </header>
  );
}
