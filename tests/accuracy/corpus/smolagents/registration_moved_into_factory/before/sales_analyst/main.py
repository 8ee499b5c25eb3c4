from sales_analyst.agents import analyst

if __name__ == "__main__":
    print(analyst.run("How did EMEA do in 2025Q1 compared to 2024Q1?"))
